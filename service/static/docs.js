// The OpenAPI page at /docs: starts Swagger UI (loaded just before, from this service:
// service/routers/api_docs.py) on the service's document. A file of its own, because the
// page's Content-Security-Policy runs no inline script.

window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  presets: [window.SwaggerUIBundle.presets.apis],
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null, // never send the document to swagger.io's validator
});
