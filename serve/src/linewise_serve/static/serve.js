// linewise serve's pages: "/" focuses the page's search or filter field. Builds no markup.
(() => {
  "use strict";
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement;
    if (event.key !== "/" || typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const field = document.querySelector("main input");
    if (field) {
      event.preventDefault();
      field.focus();
    }
  });
})();
