// Swagger UI's global (service/static/docs.js), loaded before it by /docs (service/routers/api_docs.py).
interface Window {
  SwaggerUIBundle: ((options: Record<string, unknown>) => unknown) & { presets: { apis: unknown } };
}
