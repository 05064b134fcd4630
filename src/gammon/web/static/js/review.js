// The review page: show one server-rendered board at a time, stepped with the buttons and the
// arrow keys (Home/End for the first and last).  Nothing is computed here: without this script
// every board stays listed.
import { applyTheme } from "./theme.js";

applyTheme(); // the page's colours in the theme this browser chose on the board's page
const frames = [...document.querySelectorAll(".review .frame")];
const at = document.querySelector(".review-at");
let current = 0;

function show(i) {
  current = Math.max(0, Math.min(frames.length - 1, i));
  frames.forEach((f, j) => { f.hidden = j !== current; });
  if (at) at.textContent = `${current + 1} / ${frames.length}`;
}

const steps = {first: () => 0, prev: () => current - 1, next: () => current + 1, last: () => frames.length - 1};
document.querySelectorAll(".review-controls button").forEach((b) => {
  b.addEventListener("click", () => show(steps[b.dataset.step]()));
});
document.addEventListener("keydown", (e) => {
  const key = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
  if (key) { e.preventDefault(); show(steps[key]()); }
});
if (frames.length) show(0);
