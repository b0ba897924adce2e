// fracas: the encounter builder (pick a ruleset, add combatants from templates or a file, place them).
"use strict";
(() => {
  const root = document.getElementById("builder");
  const rulesets = window.FRACAS_RULESETS || [];
  const HEX = 20, COLS = 14, ROWS = 10;
  let enc = { version: 1, ruleset: "", name: "New encounter", max_rounds: 100,
              sides: [{ name: "heroes", combatants: [] }, { name: "monsters", combatants: [] }] };
  let extra = {};          // fields of an uploaded file the builder does not edit (map, options, settings...)
  let placing = null;      // [side index, entry index]

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const rs = () => rulesets.find((r) => r.id === enc.ruleset) || {};

  function fillRulesets() {
    const sel = document.getElementById("ruleset");
    sel.innerHTML = rulesets.map((r) => `<option value="${esc(r.id)}" ${r.available ? "" : "disabled"}>${esc(r.name)}${r.available ? "" : " (not available yet)"}</option>`).join("");
    const first = rulesets.find((r) => r.available);
    if (!enc.ruleset && first) enc.ruleset = first.id;
    sel.value = enc.ruleset;
    sel.onchange = () => { enc.ruleset = sel.value; draw(); };
  }

  function positions(e) {
    if (!e.at) return [];
    if (e.at.length === 2 && typeof e.at[0] === "number") return [e.at];
    return e.at;
  }

  function entryHtml(e, si, ci) {
    const r = rs();
    const tpl = (r.templates || []).map((t) => `<option ${t === e.template ? "selected" : ""}>${esc(t)}</option>`).join("");
    const tac = (r.tactics || ["default"]).map((t) => `<option ${t === (e.tactic || "default") ? "selected" : ""}>${esc(t)}</option>`).join("");
    const pos = positions(e).map((p) => `(${p[0]}, ${p[1]})`).join(" ") || "not placed";
    const isPlacing = placing && placing[0] === si && placing[1] === ci;
    return `<div class="entry${isPlacing ? " placing" : ""}" data-si="${si}" data-ci="${ci}">
      <select data-f="template" aria-label="template">${tpl}</select>
      <label>× <input type="number" data-f="count" min="1" max="500" value="${e.count || 1}"></label>
      <input type="text" data-f="name" placeholder="name (optional)" value="${esc(e.name || "")}">
      <label><input type="checkbox" data-f="player" ${e.player ? "checked" : ""}> player</label>
      <label><input type="checkbox" data-f="hidden" ${e.hidden ? "checked" : ""}> hidden</label>
      <select data-f="tactic" aria-label="tactic">${tac}</select>
      <span class="pos">${esc(pos)}</span>
      <button type="button" data-do="place">${isPlacing ? "done" : "place"}</button>
      <button type="button" data-do="remove">remove</button></div>`;
  }

  function draw() {
    document.getElementById("ruleset").value = enc.ruleset;
    document.getElementById("name").value = enc.name || "";
    document.getElementById("max-rounds").value = enc.max_rounds || 100;
    const box = document.getElementById("sides");
    box.innerHTML = enc.sides.map((s, si) => `<fieldset data-si="${si}"><legend>Side <input type="text" data-side="${si}" value="${esc(s.name)}"></legend>
      ${s.combatants.map((e, ci) => entryHtml(e, si, ci)).join("")}
      <p><button type="button" data-do="add" data-si="${si}">Add a combatant</button>
      ${enc.sides.length > 2 ? `<button type="button" data-do="remove-side" data-si="${si}">Remove this side</button>` : ""}</p></fieldset>`).join("");
    drawMap();
  }

  function xy(q, r) { return [HEX * Math.sqrt(3) * (q + r / 2), HEX * 1.5 * r]; }

  // The map reaches every placed combatant (negative rows and columns too) with a hex to spare, and at
  // least the first COLS x ROWS hexes. The players' side is colour 0, the others follow in order, as in the
  // fight's own map.
  function drawMap() {
    const svg = document.getElementById("builder-map");
    const taken = {};
    const players = enc.sides.map((s) => s.combatants.some((e) => e.player));
    let k = 1;
    const colour = players.map((p) => (p ? 0 : (k++ % 4) || 1));
    let rmin = 0, rmax = ROWS - 1, cmin = 0, cmax = COLS - 1;
    enc.sides.forEach((s, si) => s.combatants.forEach((e) => positions(e).forEach((p, n) => {
      const many = positions(e).length > 1;
      taken[p[0] + "," + p[1]] = { si, label: (e.name || e.template || "?").slice(0, 2) + (many ? n + 1 : ""),
                                   name: (e.name || e.template || "?") + (many ? " " + (n + 1) : "") };
      const c = p[0] + Math.floor(p[1] / 2);
      rmin = Math.min(rmin, p[1] - 1); rmax = Math.max(rmax, p[1] + 1);
      cmin = Math.min(cmin, c - 1); cmax = Math.max(cmax, c + 1);
    })));
    const blocked = new Set(((extra.map || {}).blocked || []).map((h) => h[0] + "," + h[1]));
    let cells = "", tokens = "";
    for (let r = rmin; r <= rmax; r++) {
      for (let c = cmin; c <= cmax; c++) {
        const q = c - Math.floor(r / 2);
        const [x, y] = xy(q, r);
        const pts = [0, 1, 2, 3, 4, 5].map((i) => { const a = Math.PI / 180 * (60 * i - 30); return (x + HEX * Math.cos(a)).toFixed(1) + "," + (y + HEX * Math.sin(a)).toFixed(1); }).join(" ");
        cells += `<polygon class="cell${blocked.has(q + "," + r) ? " blocked" : ""}" points="${pts}" data-q="${q}" data-r="${r}"><title>(${q}, ${r})</title></polygon>`;
        const t = taken[q + "," + r];
        if (t) tokens += `<g class="token side${colour[t.si]}"><circle cx="${x}" cy="${y}" r="13"></circle><text x="${x}" y="${y + 4}" text-anchor="middle">${esc(t.label)}</text><title>${esc(t.name)} (${q}, ${r})</title></g>`;
      }
    }
    const W = HEX * Math.sqrt(3), pad = HEX * 0.3;  // a hex's width; odd rows sit half a hex to the right
    const x0 = W * (cmin - 0.5) - pad, y0 = HEX * (1.5 * rmin - 1) - pad;
    const fit = [x0, y0, W * (cmax + 1) + pad - x0, HEX * (1.5 * rmax + 1) + pad - y0].map((v) => v.toFixed(1)).join(" ");
    svg.dataset.fit = fit;
    svg.setAttribute("viewBox", fit);
    svg.innerHTML = cells + tokens;
  }

  function readForm() {
    enc.name = document.getElementById("name").value;
    enc.max_rounds = parseInt(document.getElementById("max-rounds").value, 10) || 100;
    document.querySelectorAll("[data-side]").forEach((i) => { enc.sides[+i.dataset.side].name = i.value; });
    document.querySelectorAll(".entry").forEach((div) => {
      const e = enc.sides[+div.dataset.si].combatants[+div.dataset.ci];
      div.querySelectorAll("[data-f]").forEach((f) => {
        const k = f.dataset.f;
        if (f.type === "checkbox") e[k] = f.checked;
        else if (k === "count") e[k] = parseInt(f.value, 10) || 1;
        else if (k === "name") { if (f.value.trim()) e[k] = f.value.trim(); else delete e[k]; }
        else e[k] = f.value;
      });
      const n = e.count || 1, ps = positions(e);
      if (ps.length > n) e.at = n === 1 ? ps[0] : ps.slice(0, n);
    });
  }

  root.addEventListener("change", () => { readForm(); drawMap(); });
  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-do]");
    if (b) {
      readForm();
      const d = b.dataset.do;
      if (d === "add") {
        const si = +b.dataset.si;
        const d = rs().defaults || {};
        const pick = (si === 0 ? d.heroes : d.monsters) || [];
        enc.sides[si].combatants.push({ template: pick[0] || (rs().templates || [""])[0], count: 1, player: si === 0, tactic: "default" });
      } else if (d === "remove-side") {
        enc.sides.splice(+b.dataset.si, 1);
      } else {
        const div = b.closest(".entry");
        const si = +div.dataset.si, ci = +div.dataset.ci;
        if (d === "remove") { enc.sides[si].combatants.splice(ci, 1); placing = null; }
        if (d === "place") {
          const same = placing && placing[0] === si && placing[1] === ci;
          placing = same ? null : [si, ci];
          if (!same) delete enc.sides[si].combatants[ci].at;
        }
      }
      draw();
      return;
    }
    const cell = ev.target.closest("#builder-map polygon");
    if (cell && placing) {
      const e = enc.sides[placing[0]].combatants[placing[1]];
      const p = [+cell.dataset.q, +cell.dataset.r];
      const n = e.count || 1;
      const ps = positions(e).concat([p]);
      e.at = n === 1 ? p : ps;
      if (ps.length >= n) placing = null;
      draw();
    }
  });

  document.getElementById("add-side").onclick = () => { readForm(); enc.sides.push({ name: "side " + (enc.sides.length + 1), combatants: [] }); draw(); };

  document.getElementById("upload").onchange = async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const fd = new FormData();
    fd.append("file", file);
    const r = await fetch("/api/encounters/parse", { method: "POST", body: fd });
    const data = await r.json();
    const err = document.getElementById("errors");
    if (data.status !== "ok") { err.textContent = data.error || "refused"; return; }
    err.textContent = "";
    const e = data.encounter;
    extra = {};
    for (const k of Object.keys(e)) if (!["version", "ruleset", "name", "max_rounds", "sides"].includes(k)) extra[k] = e[k];
    enc = { version: 1, ruleset: e.ruleset, name: e.name || file.name, max_rounds: e.max_rounds || 100, sides: e.sides };
    placing = null;
    draw();
  };

  document.getElementById("create").onclick = async () => {
    readForm();
    const err = document.getElementById("errors");
    err.textContent = "";
    const body = { encounter: Object.assign({}, extra, enc) };
    const r = await fetch("/api/fights", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (data.status === "ok") { window.location = data.gm; return; }
    err.textContent = data.error || "refused";
  };

  // The ruleset's defaults (from /api/rulesets): heroes (players) against monsters, as in its examples.
  // Grouped by template (two ghouls: one entry, count 2), placed in two facing columns.
  let pristine = true;     // the sides still hold the defaults: a new ruleset brings its own
  function setDefaults() {
    const d = rs().defaults || { heroes: [], monsters: [] };
    const side = (list, player, col) => {
      const out = [];
      let row = 1;
      list.forEach((t) => {
        const e = out.find((x) => x.template === t);
        const at = [col - Math.floor(row / 2), row];
        row += 2;
        if (e) { e.count += 1; e.at = positions(e).concat([at]); }
        else out.push({ template: t, count: 1, player, tactic: "default", at });
      });
      return out;
    };
    enc.sides = [{ name: "heroes", combatants: side(d.heroes, true, 2) },
                 { name: "monsters", combatants: side(d.monsters, false, 8) }];
    pristine = true;
  }
  fillRulesets();
  const sel = document.getElementById("ruleset");
  sel.onchange = () => { enc.ruleset = sel.value; if (pristine) setDefaults(); draw(); };
  root.addEventListener("change", (e) => { if (e.target !== sel) pristine = false; }, true);
  root.addEventListener("click", (e) => { if (e.target.closest("button[data-do]")) pristine = false; }, true);
  setDefaults();
  draw();
})();
