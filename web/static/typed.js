// A refused form comes back as it was typed: web/typed.py kept it, this puts it back
// into the form of that name whose hidden fields match, and marks the wrong field.
(() => {
  const el = document.getElementById("typed");
  if (!el) return;
  const { form: name, values, wrong } = JSON.parse(el.textContent);
  const own = new Set(["csrf_token", "action_id", "next"]);
  for (const form of document.querySelectorAll("form[data-action]")) {
    if (form.dataset.action !== name) continue;
    const hidden = [...form.querySelectorAll("input[type=hidden]")].filter((i) => !own.has(i.name));
    if (hidden.some((i) => i.name in values && i.value !== values[i.name])) continue;
    for (const input of form.elements) {
      if (!input.name || ["hidden", "password", "file", "submit"].includes(input.type)) continue;
      if (input.type === "checkbox") input.checked = input.name in values;
      else if (input.type === "radio") input.checked = values[input.name] === input.value;
      else if (input.name in values) input.value = values[input.name];
      if (input.name === wrong) {
        input.classList.add("wrong");
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }
    form.closest("details")?.setAttribute("open", "");
    break;
  }
})();
