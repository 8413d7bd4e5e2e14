// The types of service/static/limits.js, which service/routers/page.py makes from
// service/limits.py (PAGE_LIMITS); tests/test_page_types.py checks that the names agree.
export const MAX_ANALYSIS_SIZE: number;
