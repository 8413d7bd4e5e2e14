// The types of service/static/limits.js, which service/routers/page.py makes from the
// service's limits and the engine's defaults (PAGE_LIMITS); tests/test_page_types.py checks
// that the names and types agree.
export const CONNECT: number;
export const LEVELS: Record<string, string>;
export const MAX_SIZE: number;
export const MAX_NAME_LENGTH: number;
export const NAME_PATTERN: string;
export const DOT_NAMES: string[];
export const MIN_COMPUTER_SIZE: number;
export const MAX_COMPUTER_SIZE: number;
export const MAX_ANALYSIS_SIZE: number;
export const TERMINAL_ROWS: number;
export const TERMINAL_COLUMNS: number;
export const DIGIT_COLUMNS: number;
export const MAX_CLOCK_MINUTES: number;
export const MAX_INCREMENT: number;
export const MAX_CLOCK_DAYS: number;
