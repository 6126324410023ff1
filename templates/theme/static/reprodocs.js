/* reprodocs theme: colour scheme toggle, menu button, header dropdowns.
 * Loaded in <head>, not deferred: a remembered scheme applies before the
 * first paint. */
(() => {
  "use strict";
  const root = document.documentElement;
  const SCHEME_KEY = "reprodocs-color-scheme";
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

  // Storage may be disabled; the choice then lasts a page.
  const storedScheme = () => {
    try {
      return localStorage.getItem(SCHEME_KEY);
    } catch {
      return null;
    }
  };
  const currentScheme = () =>
    root.dataset.colorScheme || (systemDark.matches ? "dark" : "light");

  // Without a choice the stylesheet follows prefers-color-scheme.
  const remembered = storedScheme();
  if (remembered === "light" || remembered === "dark") {
    root.dataset.colorScheme = remembered;
  }
  // Only then does the stylesheet hide the menus behind the button.
  root.classList.add("reprodocs-js");

  const expand = (button, open) => button.setAttribute("aria-expanded", String(open));
  const isExpanded = (button) => button.getAttribute("aria-expanded") === "true";

  function setUpSchemeToggle(button) {
    const show = () => button.setAttribute("aria-pressed", String(currentScheme() === "dark"));
    show();
    systemDark.addEventListener("change", show);
    button.addEventListener("click", () => {
      const scheme = currentScheme() === "dark" ? "light" : "dark";
      root.dataset.colorScheme = scheme;
      try {
        localStorage.setItem(SCHEME_KEY, scheme);
      } catch {} // not remembered, still applied
      show();
    });
  }

  function setUpMenuButton(button) {
    const setOpen = (open) => {
      root.classList.toggle("reprodocs-menu-open", open);
      expand(button, open);
    };
    button.addEventListener("click", () => setOpen(!isExpanded(button)));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        setOpen(false);
        button.focus();
      }
    });
    // Following a link to a place on this page must show that place.
    for (const id of button.getAttribute("aria-controls").split(" ")) {
      document.getElementById(id)?.addEventListener("click", (event) => {
        if (event.target.closest("a[href]")) setOpen(false);
      });
    }
  }

  // Disclosure: the button toggles the list; Escape closes it (focus back
  // on the button), and so does focus or a click going elsewhere.
  function setUpDropdown(item) {
    const button = item.querySelector("button");
    button.addEventListener("click", () => expand(button, !isExpanded(button)));
    item.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        event.stopPropagation(); // closes the dropdown, not the whole menu
        expand(button, false);
        button.focus();
      }
    });
    item.addEventListener("focusout", (event) => {
      if (!item.contains(event.relatedTarget)) expand(button, false);
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const schemeButton = document.querySelector(".reprodocs-color-scheme-button");
    if (schemeButton) setUpSchemeToggle(schemeButton);
    const menuButton = document.querySelector(".reprodocs-menu-button");
    if (menuButton) setUpMenuButton(menuButton);
    document.querySelectorAll(".reprodocs-dropdown").forEach(setUpDropdown);
  });
})();
