// graphmem's API reference: Swagger UI (swagger-ui-dist, embedded in the
// binary) rendering /openapi.yaml. No request leaves this host: the
// online validator is off.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    persistAuthorization: true,
    showExtensions: false,
  });
});
