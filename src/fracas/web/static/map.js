// fracas: zoom and pan of the battle maps (svg.hexmap) by the mouse wheel, the +/-/Fit buttons, a drag, or
// two fingers. The view box the game master chose is kept across the page's redraws; "Fit" gives the map
// back to the server, which fits it around every combatant.
"use strict";
(() => {
  let chosen = null;             // [x, y, w, h] the user zoomed or panned to; null: the server's fit
  const MIN_SHARE = 1 / 8;       // zoomed in to at most an eighth of the fitted width
  const MAX_SHARE = 3;           // zoomed out to at most three times it

  const box = (s) => (s || "").trim().split(/[\s,]+/).map(Number);
  const fitOf = (svg) => box(svg.dataset.fit || svg.getAttribute("viewBox"));
  function setBox(svg, b) {
    const fit = fitOf(svg);
    const w = Math.min(Math.max(b[2], fit[2] * MIN_SHARE), fit[2] * MAX_SHARE);
    const h = b[3] * (w / b[2]);
    const cx = b[0] + b[2] / 2, cy = b[1] + b[3] / 2;
    chosen = [cx - w / 2, cy - h / 2, w, h];
    svg.setAttribute("viewBox", chosen.map((v) => v.toFixed(1)).join(" "));
  }
  // a point of the page in the map's units
  function at(svg, clientX, clientY) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }
  function zoom(svg, factor, point) {
    const b = box(svg.getAttribute("viewBox"));
    const [px, py] = point || [b[0] + b[2] / 2, b[1] + b[3] / 2];
    setBox(svg, [px - (px - b[0]) / factor, py - (py - b[1]) / factor, b[2] / factor, b[3] / factor]);
    // keep the point under the cursor where it was (setBox may have clamped the size)
    const n = box(svg.getAttribute("viewBox")), k = n[2] / b[2];
    setBox(svg, [px - (px - b[0]) * k, py - (py - b[1]) * k, n[2], n[3]]);
  }

  document.addEventListener("wheel", (e) => {
    const svg = e.target.closest && e.target.closest("svg.hexmap");
    if (!svg) return;
    e.preventDefault();
    zoom(svg, e.deltaY < 0 ? 1.2 : 1 / 1.2, at(svg, e.clientX, e.clientY));
  }, { passive: false });

  document.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-zoom]");
    if (!b) return;
    const svg = b.closest(".map, fieldset").querySelector("svg.hexmap");
    if (!svg) return;
    e.preventDefault();
    if (b.dataset.zoom === "fit") { chosen = null; svg.setAttribute("viewBox", svg.dataset.fit); return; }
    zoom(svg, b.dataset.zoom === "in" ? 1.4 : 1 / 1.4);
  });

  // a drag pans; two fingers pinch. A drag of a few pixels is still a click (picking a hex).
  const pointers = new Map();
  let drag = null, dragged = false;
  document.addEventListener("pointerdown", (e) => {
    const svg = e.target.closest && e.target.closest("svg.hexmap");
    if (!svg || (e.pointerType === "mouse" && e.button !== 0)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    drag = { svg, x: e.clientX, y: e.clientY, vb: box(svg.getAttribute("viewBox")), pinch: null };
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      drag.pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
    }
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag || !pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const svg = drag.svg;
    if (pointers.size === 2 && drag.pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d > 0) zoom(svg, d / drag.pinch, at(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
      drag.pinch = d;
      dragged = true;
      return;
    }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 5) return;
    if (!dragged) { dragged = true; svg.classList.add("dragging"); }
    const m = svg.getScreenCTM();
    if (!m) return;
    const v = drag.vb;
    setBox(svg, [v[0] - dx / m.a, v[1] - dy / m.d, v[2], v[3]]);
  });
  function up(e) {
    pointers.delete(e.pointerId);
    if (drag) drag.svg.classList.remove("dragging");
    if (pointers.size === 0) drag = null;
  }
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
  // the click that ends a drag is no click on a hex
  document.addEventListener("click", (e) => {
    if (dragged && e.target.closest && e.target.closest("svg.hexmap")) { e.stopPropagation(); e.preventDefault(); }
    dragged = false;
  }, true);

  // a redrawn map keeps the view chosen on the one it replaces
  new MutationObserver(() => {
    if (!chosen) return;
    document.querySelectorAll("svg.hexmap").forEach((svg) => {
      if (svg.getAttribute("viewBox") !== chosen.map((v) => v.toFixed(1)).join(" ")) setBox(svg, chosen);
    });
  }).observe(document.body, { childList: true, subtree: true });
})();
