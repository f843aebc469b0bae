// The card step of an offset link's confirmation page: Stripe.js mounts its
// card field, confirms the page's SetupIntent with it, and the form is sent
// with the PaymentMethod Stripe made (the card itself never reaches Tonne).
(function () {
  "use strict";
  var form = document.getElementById("pay");
  var mount = document.getElementById("card-element");
  var errors = document.getElementById("card-errors");
  if (!form || !mount || typeof Stripe !== "function") {
    if (errors) {
      errors.textContent = "The card field could not be loaded. Reload the page to try again.";
    }
    return;
  }
  var stripe = Stripe(form.getAttribute("data-key"));
  var card = stripe.elements().create("card");
  card.mount(mount);
  var button = form.querySelector("button[type=submit]");
  var field = form.querySelector("input[name=payment_method]");
  var busy = false;
  form.addEventListener("submit", function (event) {
    if (field.value) {
      return; // confirmed: the form goes
    }
    event.preventDefault();
    if (busy) {
      return; // acts once
    }
    busy = true;
    button.disabled = true;
    errors.textContent = "";
    stripe
      .confirmCardSetup(form.getAttribute("data-secret"), {
        payment_method: { card: card },
      })
      .then(function (result) {
        if (result.error || !result.setupIntent) {
          var message = result.error && result.error.message;
          errors.textContent = message || "Your card was refused; nothing was charged.";
          busy = false;
          button.disabled = false;
          return;
        }
        field.value = result.setupIntent.payment_method;
        form.submit();
      });
  });
})();
