// Translated strings for the scripts: the page renders them (Django's gettext) into a JSON script tag,
// so nothing the player reads is written in the scripts themselves.

let strings = null;

function load() {
  if (strings === null) {
    const node = document.getElementById("ui-strings");
    strings = node ? JSON.parse(node.textContent) : {};
  }
  return strings;
}

/** The value under `key` as the page rendered it (a string, a list of forms, or a map). */
export function raw(key) {
  return load()[key];
}

/** The translated string `key`, with `%(name)s` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = load()[key];
  if (text === undefined) {
    console.warn("missing string", key);
    return key;
  }
  return text.replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Pick the singular or plural form: strings `key` and `key_plural` (Django's ngettext renders both). */
export function tn(key, count, vars = {}) {
  const forms = load()[key + "_forms"];
  if (Array.isArray(forms)) {
    const text = forms[pluralIndex(count, forms.length)];
    return text.replace(/%\((\w+)\)[sd]/g, (whole, name) => {
      if (name === "count") return String(count);
      return name in vars ? String(vars[name]) : whole;
    });
  }
  return t(key, { count, ...vars });
}

function pluralIndex(count, forms) {
  const lang = document.documentElement.lang || "en";
  if (forms <= 1) return 0;
  if (lang.startsWith("ro") && forms === 3) {
    if (count === 1) return 0;
    if (count === 0 || (count % 100 > 0 && count % 100 < 20)) return 1;
    return 2;
  }
  return count === 1 ? 0 : 1;
}

/** Is there a string `key`? (For lines the server may add, which then show the server's label.) */
export function has(key) {
  return key in load();
}
