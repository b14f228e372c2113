// Starts Swagger UI. Kept out of the page so that its Content-Security-Policy can forbid inline scripts.
window.addEventListener("load", function () {
  var node = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: node.getAttribute("data-openapi-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    // The validator badge would call swagger.io; this page contacts no outside host.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    layout: "BaseLayout",
  });
});
