// The demo shop's side of the frames: accept messages from checkout's origin only, then act on them.
(function () {
  "use strict";
  var refresh = document.querySelector("[data-refresh]");
  if (refresh) { window.setTimeout(function () { window.location.reload(); }, +refresh.getAttribute("data-refresh")); }
  var frame = document.getElementById("checkout-frame");
  if (!frame) { return; }
  var service = new URL(frame.src).origin;
  var status = document.getElementById("token-status");
  window.addEventListener("message", function (event) {
    if (event.origin !== service || !event.data || event.data.type !== frame.getAttribute("data-listen")) { return; }
    if (event.data.type === "checkout.card_token") {
      status.textContent = "Card received: •••• " + event.data.last_four_digits;
      document.getElementById("token-field").value = event.data.token;
      document.getElementById("token-form").submit();
    } else {
      status.textContent = "Payout " + event.data.status;
      window.location.assign(frame.getAttribute("data-back") + "&token=" + encodeURIComponent(event.data.token));
    }
  });
}());
