// symex HTML report (docs/reports.md): draws the embedded JSON report over the embedded source.
// No network, no libraries: the page works from a file on a machine without a connection.
// Everything here reads the report; nothing decides a verdict.
"use strict";

const report = JSON.parse(document.getElementById("symex-report").textContent);
const source = JSON.parse(document.getElementById("symex-source").textContent);
const lines = source.split("\n");

const STATUS_LETTER = { violated: "!", unknown: "?", "safe-up-to": "K", safe: "✓" };
const STATUS_ORDER = ["violated", "unknown", "safe-up-to", "safe"];

const view = { property: null, step: 0 };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---- values -------------------------------------------------------------------------------

function show(value) {
  if (value === null) return "null";
  if (value === "uninit") return "?";
  if (typeof value === "number") return String(value);
  if ("int" in value) return value.int;
  if ("ref" in value) return "&" + value.ref;
  if ("record" in value) {
    return "{" + Object.entries(value.record).map(([k, v]) => k + ": " + show(v)).join(", ") + "}";
  }
  if ("array" in value) return "[" + value.array.map(show).join(", ") + "]";
  if ("value" in value) return show(value.value);
  return JSON.stringify(value);
}

function clone(value) {
  return value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value));
}

// `o3.next`, `a[2]`, `r.x.y[1]` below `root`: field names may hold dots (C's nested members),
// so each field is the longest one of the record that the rest of the path starts with.
function writePath(root, rest, value) {
  if (rest === "") return value;
  if (rest[0] === "[") {
    const close = rest.indexOf("]");
    const index = Number(rest.slice(1, close));
    const target = root && root.array ? clone(root) : { array: [] };
    target.array[index] = writePath(target.array[index], rest.slice(close + 1), value);
    return target;
  }
  const target = root && root.record ? clone(root) : { record: {} };
  const names = Object.keys(target.record).sort((a, b) => b.length - a.length);
  const name =
    names.find((n) => rest.startsWith("." + n) && /^($|[.[])/.test(rest.slice(n.length + 1))) ??
    rest.slice(1).split(/[.[]/)[0];
  target.record[name] = writePath(target.record[name], rest.slice(name.length + 1), value);
  return target;
}

// ---- the state after a number of steps ------------------------------------------------------

function initialState(cex) {
  const objects = new Map();
  const heap = cex.heap && cex.heap.objects ? cex.heap.objects : {};
  for (const [name, object] of Object.entries(heap)) objects.set(name, clone(object.record ? object : object.value));
  const vars = new Map(Object.entries(cex.args || {}).map(([k, v]) => [k, clone(v)]));
  return { frames: [{ function: report.entry, vars }], objects, freed: new Set(), changed: null };
}

// Replays the first `count` steps of the trace over the counterexample's inputs, from the
// nearest earlier state kept (one every CHECKPOINT steps), so that stepping through a long
// trace stays linear.
const CHECKPOINT = 256;
const checkpoints = new Map();

function stateAfter(cex, count) {
  if (checkpoints.get("cex") !== cex) {
    checkpoints.clear();
    checkpoints.set("cex", cex);
    checkpoints.set(0, initialState(cex));
  }
  let from = count - (count % CHECKPOINT);
  while (!checkpoints.has(from)) from -= CHECKPOINT;
  const state = copyState(checkpoints.get(from));
  for (let i = from; i < count; i++) {
    apply(state, cex.trace[i]);
    if ((i + 1) % CHECKPOINT === 0 && !checkpoints.has(i + 1)) {
      checkpoints.set(i + 1, copyState(state));
    }
  }
  return state;
}

function copyState(state) {
  return {
    frames: state.frames.map((f) => ({ ...f, vars: new Map([...f.vars].map(([k, v]) => [k, clone(v)])) })),
    objects: new Map([...state.objects].map(([k, v]) => [k, clone(v)])),
    freed: new Set(state.freed),
    changed: state.changed,
  };
}

function apply(state, step) {
  const frame = state.frames[state.frames.length - 1];
  state.changed = null;
  switch (step.event) {
    case "call":
      state.frames.push({ function: step.callee, vars: new Map(), args: step.args });
      break;
    case "return":
      if (state.frames.length > 1) state.frames.pop();
      break;
    case "assign":
      frame.vars.set(step.var, clone(step.value));
      state.changed = step.var;
      break;
    case "alloc":
      state.objects.set(step.object, clone(step.value));
      state.changed = step.object;
      break;
    case "free":
      state.freed.add(step.object);
      state.changed = step.object;
      break;
    case "store": {
      const base = storeBase(state, step.target);
      if (base.object !== undefined) {
        state.objects.set(base.object, writePath(state.objects.get(base.object), base.rest, step.value));
      } else {
        // The innermost call of the named function (or any call) that has the variable.
        const frames = [...state.frames].reverse();
        const owner =
          frames.find((f) => f.vars.has(base.var) && (!base.owner || f.function === base.owner)) ||
          frame;
        owner.vars.set(base.var, writePath(owner.vars.get(base.var), base.rest, step.value));
      }
      state.changed = base.object ?? base.var;
      break;
    }
    default:
      break;
  }
}

// The object or variable a store's target starts with (the longest known name); a variable of
// another call is written `function:variable`.
function storeBase(state, target) {
  const startsWith = (n) => target.startsWith(n) && /^($|[.[])/.test(target.slice(n.length));
  const longest = (names) => [...names].sort((a, b) => b.length - a.length).find(startsWith);
  const object = longest(state.objects.keys());
  if (object !== undefined) return { object, rest: target.slice(object.length) };
  const qualified = /^([A-Za-z_]\w*):/.exec(target);
  const owner = qualified ? qualified[1] : undefined;
  const unqualified = qualified ? target.slice(qualified[0].length) : target;
  const names = state.frames.flatMap((f) => [...f.vars.keys()]);
  const found = [...names].sort((a, b) => b.length - a.length)
    .find((n) => unqualified.startsWith(n) && /^($|[.[])/.test(unqualified.slice(n.length)));
  const name = found ?? unqualified.split(/[.[]/)[0];
  return { var: name, owner, rest: unqualified.slice(name.length) };
}

// ---- header, statistics, properties ---------------------------------------------------------

function renderHeader() {
  const counts = {};
  for (const p of report.properties) counts[p.status] = (counts[p.status] || 0) + 1;
  const header = document.getElementById("header");
  header.append(
    el("h1", {}, "symex: ", report.program),
    el("div", { class: "muted" }, `engine ${report.engine}, entry ${report.entry}` +
      (report.frontend && report.frontend.length ? `, ${report.frontend.join(" ")}` : "")),
    el("div", { class: "counts" }, ...STATUS_ORDER.map((s) =>
      el("span", { class: "status-text " + s }, `${counts[s] || 0} ${s}`))),
  );
  const stats = document.getElementById("stats");
  const table = el("table");
  for (const [key, value] of Object.entries(report.stats)) {
    if (typeof value !== "object") table.append(el("tr", {}, el("td", {}, key), el("td", {}, value)));
  }
  stats.append(table);
}

function renderFilters() {
  const filters = document.getElementById("filters");
  for (const status of STATUS_ORDER) {
    const box = el("input", { type: "checkbox", id: "show-" + status, "data-status": status });
    box.checked = true;
    box.addEventListener("change", renderProperties);
    filters.append(el("label", {}, box, " " + status));
  }
  const kinds = [...new Set(report.properties.map((p) => p.kind))].sort();
  const select = el("select", { id: "kind-filter", onchange: renderProperties }, el("option", { value: "" }, "every kind"));
  for (const kind of kinds) select.append(el("option", { value: kind }, kind));
  filters.append(select);
}

function shownProperties() {
  const kind = document.getElementById("kind-filter").value;
  return report.properties
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => document.getElementById("show-" + p.status).checked && (!kind || p.kind === kind));
}

function renderProperties() {
  const body = el("tbody");
  for (const { p, index } of shownProperties()) {
    const detail = p.status === "safe-up-to" ? `up to ${p.bound}` : p.reason || "";
    const row = el("tr", { "data-index": index, onclick: () => select(index) },
      el("td", {}, `${p.line}:${p.column}`),
      el("td", {}, p.kind),
      el("td", { class: "status-text " + p.status }, p.status),
      el("td", { class: "muted" }, detail));
    if (index === view.property) row.classList.add("selected");
    body.append(row);
  }
  const box = document.getElementById("properties");
  box.replaceChildren(el("table", {}, body));
  const selected = box.querySelector("tr.selected");
  if (selected) box.scrollTop = selected.offsetTop - box.clientHeight / 2;
}

// ---- source --------------------------------------------------------------------------------

function renderSource() {
  const box = document.getElementById("source");
  const byLine = new Map();
  report.properties.forEach((p, index) => {
    if (!byLine.has(p.line)) byLine.set(p.line, []);
    byLine.get(p.line).push(index);
  });
  lines.forEach((text, i) => {
    const number = i + 1;
    // One mark per status on the line (with a count): a line may hold many checks.
    const marks = el("span", { class: "marks" });
    const here = byLine.get(number) || [];
    for (const status of STATUS_ORDER) {
      const ofStatus = here.filter((index) => report.properties[index].status === status);
      if (!ofStatus.length) continue;
      const title = ofStatus.map((index) => {
        const p = report.properties[index];
        return `${p.kind} at ${p.line}:${p.column}: ${p.status}${p.reason ? " (" + p.reason + ")" : ""}`;
      }).join("\n");
      const count = ofStatus.length > 1 ? String(ofStatus.length) : "";
      marks.append(el("span", { class: "mark " + status, title, onclick: () => select(ofStatus[0]) },
        STATUS_LETTER[status] + count));
    }
    box.append(el("div", { class: "line", id: "line-" + number, "data-line": number },
      el("span", { class: "no" }, number), marks, el("code", {}, text)));
  });
}

// ---- a violation, step by step --------------------------------------------------------------

function select(index) {
  view.property = index;
  view.step = 0;
  renderProperties();
  renderTrace();
}

function counterexample() {
  const p = view.property === null ? null : report.properties[view.property];
  return p && p.counterexample ? p.counterexample : null;
}

function renderTrace() {
  const cex = counterexample();
  const panel = document.getElementById("trace");
  const p = view.property === null ? null : report.properties[view.property];
  document.querySelectorAll(".line.on-path").forEach((l) => l.classList.remove("on-path"));
  if (!cex) {
    panel.hidden = true;
    document.getElementById("no-trace").textContent = p
      ? `${p.kind} at ${p.line}:${p.column} is ${p.status}${p.reason ? ": " + p.reason : ""}.`
      : "Select a property (a mark in the margin or a row above).";
    markCurrentLine(p ? p.line : null);
    return;
  }
  document.getElementById("no-trace").textContent = "";
  panel.hidden = false;
  for (const step of cex.trace) {
    const line = document.getElementById("line-" + step.line);
    if (line) line.classList.add("on-path");
  }
  document.getElementById("inputs").textContent =
    `inputs: ${cex.inputs.length ? cex.inputs.join(", ") : "none"}` +
    (Object.keys(cex.args || {}).length ? `; arguments: ${show({ record: cex.args })}` : "");
  const slider = document.getElementById("slider");
  slider.max = cex.trace.length;
  const list = document.getElementById("steps");
  list.replaceChildren(...cex.trace.map((step, i) =>
    el("div", { "data-step": i + 1, onclick: () => goTo(i + 1) }, `${describeStep(step)}`)));
  renderInitialHeap(cex);
  goTo(cex.trace.length ? 1 : 0);
}

function describeStep(step) {
  const at = `${step.function}:${step.line}:${step.column}`.padEnd(14);
  switch (step.event) {
    case "branch": return `${at} condition is ${step.condition}`;
    case "call": return `${at} call ${step.callee}(${step.args.map(show).join(", ")})`;
    case "return": return `${at} return ${show(step.value)}`;
    case "assign": return `${at} ${step.var} = ${show(step.value)}`;
    case "store": return `${at} ${step.target} = ${show(step.value)}`;
    case "alloc": return `${at} new ${step.object} = ${show(step.value)}`;
    case "free": return `${at} free ${step.object}`;
    case "input": return `${at} input #${step.index} is ${step.value}`;
    case "fail": return `${at} ${step.kind} fails here`;
    default: return `${at} ${step.event}`;
  }
}

// Shows the state after `count` steps (0: before the first).
function goTo(count) {
  const cex = counterexample();
  if (!cex) return;
  view.step = Math.max(0, Math.min(count, cex.trace.length));
  document.getElementById("slider").value = view.step;
  const step = cex.trace[view.step - 1];
  document.getElementById("step-text").textContent = step
    ? `step ${view.step} of ${cex.trace.length}: ${describeStep(step)}`
    : `before the first step (${cex.trace.length} steps)`;
  document.getElementById("step-text").dataset.step = view.step;
  document.querySelectorAll("#steps div.current").forEach((d) => d.classList.remove("current"));
  const row = document.querySelector(`#steps div[data-step="${view.step}"]`);
  if (row) {
    row.classList.add("current");
    row.scrollIntoView({ block: "nearest" });
  }
  markCurrentLine(step ? step.line : null);
  const state = stateAfter(cex, view.step);
  renderVariables(state);
  document.getElementById("heap").replaceChildren(drawHeap(state));
}

function markCurrentLine(number) {
  document.querySelectorAll(".line.current").forEach((l) => l.classList.remove("current"));
  const line = number === null ? null : document.getElementById("line-" + number);
  if (line) {
    line.classList.add("current");
    line.scrollIntoView({ block: "nearest" });
  }
}

function renderVariables(state) {
  const table = el("table");
  [...state.frames].reverse().forEach((frame) => {
    const args = frame.args ? `(${frame.args.map(show).join(", ")})` : "";
    table.append(el("tr", { class: "frame" }, el("td", { colspan: 2 }, frame.function + args)));
    for (const [name, value] of frame.vars) {
      const cls = name === state.changed ? "changed" : "";
      table.append(el("tr", { "data-var": name, "data-function": frame.function },
        el("td", { class: cls }, name), el("td", { class: cls + " value" }, show(value))));
    }
  });
  document.getElementById("variables").replaceChildren(table);
}

// ---- heap graphs ----------------------------------------------------------------------------

function renderInitialHeap(cex) {
  const box = document.getElementById("initial-heap");
  const heading = document.getElementById("initial-heap-heading");
  const hasHeap = cex.heap && Object.keys(cex.heap.objects || {}).length > 0;
  heading.hidden = !hasHeap;
  box.replaceChildren(hasHeap ? drawHeap(initialState(cex)) : "");
}

const NODE_WIDTH = 170;
const ROW = 17;
const GAP_X = 60;
const GAP_Y = 16;

// The variables of every frame and the heap objects, as boxes with one row per field; pointers
// as arrows. Objects sit in columns by their distance from the variables.
function drawHeap(state) {
  const rows = (value) => {
    if (value && typeof value === "object" && "record" in value) return Object.entries(value.record);
    if (value && typeof value === "object" && "array" in value) return value.array.map((v, i) => [`[${i}]`, v]);
    return [["", value]];
  };
  const roots = [];
  for (const frame of state.frames) {
    for (const [name, value] of frame.vars) roots.push([frame === state.frames[state.frames.length - 1] ? name : `${frame.function}.${name}`, value]);
  }
  const nodes = [{ name: "variables", rows: roots, column: 0, kind: "variables" }];
  const placed = new Map([["variables", nodes[0]]]);
  const queue = [nodes[0]];
  const targets = (node) => node.rows.flatMap(([, v]) => refsIn(v));
  while (queue.length) {
    const node = queue.shift();
    for (const target of targets(node)) {
      if (!placed.has(target) && state.objects.has(target)) {
        const next = { name: target, rows: rows(state.objects.get(target)), column: node.column + 1 };
        placed.set(target, next);
        nodes.push(next);
        queue.push(next);
      }
    }
  }
  for (const [name, value] of state.objects) {
    if (!placed.has(name)) {
      const node = { name, rows: rows(value), column: 1, unreachable: true };
      placed.set(name, node);
      nodes.push(node);
    }
  }
  const heights = [];
  for (const node of nodes) {
    node.x = 8 + node.column * (NODE_WIDTH + GAP_X);
    node.y = 8 + (heights[node.column] || 0);
    node.height = ROW * (node.rows.length + 1);
    heights[node.column] = (heights[node.column] || 0) + node.height + GAP_Y;
  }
  const width = 16 + (Math.max(...nodes.map((n) => n.column)) + 1) * (NODE_WIDTH + GAP_X);
  const height = 16 + Math.max(...heights);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const make = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("class", "heap-graph");
  const defs = make("defs", {});
  const marker = make("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" });
  marker.append(make("path", { d: "M0,0 L10,5 L0,10 z", fill: "#0969da" }));
  defs.append(marker);
  svg.append(defs);
  for (const node of nodes) {
    const group = make("g", { class: "node " + (node.kind || "object"), "data-object": node.name });
    if (node.unreachable) group.setAttribute("opacity", "0.55");
    group.append(make("rect", { x: node.x, y: node.y, width: NODE_WIDTH, height: node.height, rx: 3 }));
    group.append(make("rect", { class: "title", x: node.x, y: node.y, width: NODE_WIDTH, height: ROW, rx: 3 }));
    const freed = state.freed.has(node.name);
    if (freed) group.classList.add("freed");
    group.append(make("text", { x: node.x + 6, y: node.y + 12 }, node.name + (freed ? " (freed)" : "")));
    node.rows.forEach(([label, value], i) => {
      const y = node.y + ROW * (i + 1);
      const text = (label ? label + ": " : "") + (refsIn(value).length && !("record" in (value || {})) ? "•" : show(value));
      group.append(make("text", { x: node.x + 6, y: y + 12 }, text.length > 26 ? text.slice(0, 25) + "…" : text));
      for (const target of refsIn(value)) {
        const to = placed.get(target);
        if (!to) continue;
        const x1 = node.x + NODE_WIDTH - 4, y1 = y + ROW / 2;
        // Forward pointers enter the target's left side; pointers back (cycles, objects in
        // the same column) loop around to its right side.
        const back = to.column <= node.column;
        const x2 = back ? to.x + NODE_WIDTH : to.x, y2 = to.y + ROW / 2;
        const bend = back ? 40 : Math.max(30, Math.abs(x2 - x1) / 2);
        const c2 = back ? x2 + bend : x2 - bend;
        svg.append(make("path", { class: "edge", "marker-end": "url(#arrow)",
          d: `M${x1},${y1} C${x1 + bend},${y1} ${c2},${y2} ${x2},${y2}` }));
      }
    });
    svg.append(group);
  }
  return svg;
}

function refsIn(value) {
  if (value === null || typeof value !== "object") return [];
  if ("ref" in value) return [value.ref];
  if ("record" in value) return Object.values(value.record).flatMap(refsIn);
  if ("array" in value) return value.array.flatMap(refsIn);
  if ("value" in value) return refsIn(value.value);
  return [];
}

// ---- wiring ---------------------------------------------------------------------------------

function start() {
  renderHeader();
  renderFilters();
  renderSource();
  renderProperties();
  document.getElementById("slider").addEventListener("input", (e) => goTo(Number(e.target.value)));
  document.getElementById("prev").addEventListener("click", () => goTo(view.step - 1));
  document.getElementById("next").addEventListener("click", () => goTo(view.step + 1));
  document.addEventListener("keydown", (e) => {
    // A focused control (the slider too) handles its own keys.
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    const moves = { ArrowRight: 1, ArrowDown: 1, n: 1, ArrowLeft: -1, ArrowUp: -1, p: -1 };
    if (e.key in moves) {
      e.preventDefault();
      goTo(view.step + moves[e.key]);
    } else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(Infinity);
  });
  const first = report.properties.findIndex((p) => p.counterexample);
  select(first >= 0 ? first : null);
}

start();
