// Hosted pages: copy buttons, countdown, live status, messages to the merchant's frame, payout form.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent || "{}");

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.getElementById(button.getAttribute("data-copy"));
      var done = function () { button.textContent = button.getAttribute("data-done"); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
      } else {
        field.select();
        try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected */ }
      }
    });
  });

  var countdown = document.querySelector("[data-countdown]");
  if (countdown && data.deadline) {
    // The deadline is in the service's (sandbox) time; `now` says how far that is from this device's clock.
    var offset = data.now ? data.now - Date.now() / 1000 : 0;
    var tick = function () {
      var left = Math.max(0, Math.floor(data.deadline - (Date.now() / 1000 + offset)));
      var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      countdown.textContent = (h ? h + ":" : "") + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
      if (left === 0) { window.location.reload(); } else { window.setTimeout(tick, 1000); }
    };
    tick();
  }

  if (data.poll) {
    var poll = function () {
      fetch(data.poll, { headers: { "Accept": "application/json" }, credentials: "omit" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (answer && answer.status !== data.status) { window.location.assign(answer.next); }
          else { window.setTimeout(poll, data.interval || 3000); }
        }, function () { window.setTimeout(poll, (data.interval || 3000) * 2); });
    };
    window.setTimeout(poll, data.interval || 3000);
  }

  if (data.message && window.parent !== window) {
    var ancestors = window.location.ancestorOrigins;
    var parent = ancestors && ancestors.length ? ancestors[0] : "";
    if (!parent && document.referrer) { parent = new URL(document.referrer).origin; }
    // Only to an origin the merchant registered; never "*".
    if ((data.frameOrigins || []).indexOf(parent) !== -1) { window.parent.postMessage(data.message, parent); }
  }

  var methods = document.querySelectorAll("input[name=method]");
  var showMethod = function () {
    var chosen = document.querySelector("input[name=method]:checked");
    document.querySelectorAll("[data-method]").forEach(function (block) {
      block.hidden = !chosen || block.getAttribute("data-method") !== chosen.value;
    });
  };
  methods.forEach(function (input) { input.addEventListener("change", showMethod); });
  if (methods.length) { showMethod(); }

  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
      var submitter = event.submitter;
      if (submitter && submitter.name) {
        var keep = document.createElement("input");
        keep.type = "hidden"; keep.name = submitter.name; keep.value = submitter.value;
        form.appendChild(keep);
      }
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    });
  });
}());

// ---- payout checkout: the PIX key's example follows its type ----
(function () {
  "use strict";
  var type = document.querySelector("select[data-examples]");
  var key = type && document.getElementById(type.getAttribute("data-for"));
  if (!key) { return; }
  var examples = JSON.parse(type.getAttribute("data-examples"));
  type.addEventListener("change", function () { key.placeholder = examples[type.value] || ""; });
}());
