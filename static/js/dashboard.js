// The dashboard's one script: copy buttons (templates/dashboard/_copy.html). Loaded with the page's CSP nonce;
// without it every value is still plain, selectable text.
(function () {
  "use strict";
  var status = document.getElementById("copy-status");

  function fallback(text) {
    // navigator.clipboard needs a secure context (https or localhost): elsewhere, the older copy command.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target) return;
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = target.textContent.trim();
      var copying = navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(text) : fallback(text);
      // A browser may refuse the clipboard API (no permission, no focus): the older command then.
      copying.catch(function () { return fallback(text); }).then(function () {
        button.textContent = button.getAttribute("data-copied");
        if (status) status.textContent = button.getAttribute("data-copied");
        window.setTimeout(function () { button.textContent = label; if (status) status.textContent = ""; }, 2000);
      }, function () {});
    });
  });
})();
