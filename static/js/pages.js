// Hosted pages: copy buttons, countdown, live status, messages to the merchant's frame, payout form.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("page-data").textContent || "{}");

  // Copy: the Clipboard API, refused in a cross-site frame unless the parent allows clipboard-write; then
  // execCommand on the selected field; else the text stays selected and the page says which keys copy it.
  var apple = /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
  var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  // Asking a frame's blocked Clipboard API logs an error in the console: skip it where the policy says no.
  var policy = document.permissionsPolicy || document.featurePolicy;
  var allowed = !policy || policy.allowsFeature("clipboard-write");
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var state = document.getElementById(button.getAttribute("data-copy") + "-state");
    var label = button.textContent, timer = 0;
    var select = function () { field.focus(); field.select(); field.setSelectionRange(0, field.value.length); };
    var show = function (text, kind) {
      window.clearTimeout(timer);
      state.setAttribute("role", "status"); state.textContent = text; state.className = "copy-state " + kind;
    };
    var copied = function () {
      select(); show(button.getAttribute("data-done"), "ok"); button.textContent = button.getAttribute("data-done");
      timer = window.setTimeout(function () { state.textContent = ""; button.textContent = label; }, 4000);
    };
    var byHand = function () {
      select();
      show(button.getAttribute(touch ? "data-touch" : apple ? "data-apple" : "data-keys"), "manual");
    };
    var legacy = function () {
      var done = false;
      select();
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      if (done) { copied(); } else { byHand(); }
    };
    button.addEventListener("click", function () {
      if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext && allowed) {
        navigator.clipboard.writeText(field.value).then(copied, legacy);
      } else { legacy(); }
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
