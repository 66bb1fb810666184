// Starts Swagger UI on the docs page. Kept as a file (not inline) so the page's CSP needs no
// 'unsafe-inline'; the OpenAPI URL comes from the server-rendered data attribute.
(function () {
  var root = document.getElementById('reference');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  window.SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    domNode: root,
    // Deep links put an anchor inside each operation's toggle button: nested controls that screen readers cannot use.
    deepLinking: false,
    // No call to the public validator: nothing leaves the service.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
  });
})();
