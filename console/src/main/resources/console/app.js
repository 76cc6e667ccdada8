// The console page: the REST API of docs/th2-console.md, live updates from /api/events (server-sent events).
"use strict";

const params = new URLSearchParams(location.search);
if (params.get("token")) {
  sessionStorage.setItem("token", params.get("token"));
}
const token = () => sessionStorage.getItem("token") || "";
const $ = (id) => document.getElementById(id);

function showError(text) {
  const e = $("error");
  e.textContent = text;
  e.hidden = !text;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (method !== "GET") {
    opts.headers["X-Token"] = token();
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body || {});
  }
  const r = await fetch(path, opts);
  const type = r.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const msg = (data && data.error) || (method + " " + path + ": " + r.status);
    showError(msg);
    throw new Error(msg);
  }
  showError("");
  return data;
}

// ---------------------------------------------------------------- views

function show(view) {
  document.querySelectorAll(".view").forEach((v) => (v.hidden = v.id !== "view-" + view));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.view === view));
  if (view === "topology") drawLevel();
  if (view === "faults") loadFaults();
  if (view === "log") loadLog();
}
document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => show(t.dataset.view)));

function machineLine(m) {
  const found = m.discovered ? `discovered ${m.discovered.nrcs} NRCs, ${m.discovered.nics} NICs in ${m.discovered.us.toFixed(1)} us` : "not discovered yet";
  $("machine-line").textContent = `${m.topology}: ${m.nrcs} NRCs, ${m.nics} NICs, ${m.cables} cables | cycle ${m.cycle.toLocaleString("en")} `
    + `(${m.us.toFixed(1)} us) | ${found} | cables cut ${m.cut} | dead ${m.dead.length ? m.dead.join(" ") : "none"} | `
    + `AlltoAll ${m.alltoall ? "every " + m.alltoall + " cycles" : "off"} | faults ${m.faults}`;
}
async function refreshMachine() {
  machineLine(await api("GET", "/api/machine"));
}

async function loadChips() {
  const chips = await api("GET", "/api/chips?type=nrc");
  $("nrc-list").innerHTML = chips.map((c) => `<option value="${c.chip}">${c.role} ${c.unit}.${c.member}</option>`).join("");
}

async function loadLevels() {
  const levels = await api("GET", "/api/topology");
  $("level").innerHTML = levels.map((l) => `<option value="${l.level}" data-units="${l.units}">${l.title} (${l.units})</option>`).join("");
}

async function drawLevel() {
  const level = $("level").value || "cabinets";
  const unit = $("unit").value || "0";
  try {
    const svg = await api("GET", `/api/topology/${level}?unit=${encodeURIComponent(unit)}`);
    $("topology-svg").innerHTML = svg;
  } catch (e) {
    $("topology-svg").textContent = "";
  }
}
$("show-level").addEventListener("click", drawLevel);

// ---------------------------------------------------------------- jobs

function jobText(j) {
  let t = `job ${j.id} ${j.kind}: ${j.state}`;
  if (j.progress && j.state === "running") t += ` (${j.progress})`;
  if (j.error) t += `: ${j.error}`;
  return t;
}
function onJob(j) {
  $("job-status").textContent = jobText(j);
  const row = document.getElementById("job-" + j.id) || (() => {
    const tr = document.createElement("tr");
    tr.id = "job-" + j.id;
    $("jobs-table").tBodies[0].prepend(tr);
    return tr;
  })();
  const result = j.error ? j.error : j.result ? JSON.stringify(j.result).slice(0, 200) : j.progress;
  row.innerHTML = `<td>${j.id}</td><td>${j.kind}</td><td>${j.state}</td><td>${escapeHtml(result || "")}</td>`;
  if (j.state === "done" || j.state === "failed") {
    refreshMachine();
    if (j.kind.startsWith("trace") && j.result) {
      $("trace-result").textContent = (j.result.reachable ? "reachable" : "not reachable") + (j.result.replayAgrees ? ", agrees with the replay" : "")
        + "\n" + j.result.steps.join("\n");
    }
    if (j.kind.startsWith("discovery")) loadChips();
    if (j.kind.startsWith("cut") || j.kind.startsWith("mend") || j.kind.startsWith("kill")) drawLevel();
  }
}
function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

$("discover-btn").addEventListener("click", () => api("POST", "/api/discover").then(onJob).catch(() => {}));
$("scan-btn").addEventListener("click", () => api("POST", "/api/scan", { mode: "single" }).then(onJob).catch(() => {}));
$("compare-btn").addEventListener("click", () => api("POST", "/api/scan", { mode: "compare" }).then(onJob).catch(() => {}));

// ---------------------------------------------------------------- devices

async function readDevice() {
  const chip = $("device-chip").value;
  $("device-info").textContent = "reading in band...";
  try {
    const d = await api("GET", `/api/chips/${encodeURIComponent(chip)}`);
    $("device-info").textContent = `${d.chip}: ${d.requests} requests` + (d.failures.length ? `, failed: ${d.failures.join("; ")}` : "");
    $("device-registers").tBodies[0].innerHTML = Object.entries(d.registers)
      .map(([k, v]) => `<tr><td>${k}</td><td id="reg-${k}">${v === null ? "no answer" : v}</td></tr>`).join("");
    $("device-ports").tBodies[0].innerHTML = d.ports.map((p) => `<tr><td>${p.port}</td><td class="${p.up ? "up" : "down"}">${p.up === null ? "?" : p.up ? "up" : "down"}</td>`
      + `<td>${p.width ?? ""}</td><td>${escapeHtml(p.neighbour)}</td><td>${p.FLITS_RECEIVED ?? ""}</td><td>${p.CRC_ERRORS ?? ""}</td><td>${p.LINK_DOWNS ?? ""}</td></tr>`).join("");
  } catch (e) {
    $("device-info").textContent = "";
  }
}
$("device-read").addEventListener("click", readDevice);
$("reg-read").addEventListener("click", async () => {
  const r = await api("GET", `/api/chips/${encodeURIComponent($("device-chip").value)}/registers/${encodeURIComponent($("reg-name").value)}`).catch(() => null);
  $("reg-result").textContent = r ? `${r.register} = ${r.value} (${r.hex})` : "";
});
$("reg-write").addEventListener("click", async () => {
  const r = await api("PUT", `/api/chips/${encodeURIComponent($("device-chip").value)}/registers/${encodeURIComponent($("reg-name").value)}`,
    { value: $("reg-value").value }).catch(() => null);
  $("reg-result").textContent = r ? `${r.register} written` : "";
});
const chipPort = () => ({ chip: $("device-chip").value, port: Number($("action-port").value) });
$("cut-btn").addEventListener("click", () => api("POST", "/api/cut", { ...chipPort(), on: true }).then(onJob).catch(() => {}));
$("mend-btn").addEventListener("click", () => api("POST", "/api/cut", { ...chipPort(), on: false }).then(onJob).catch(() => {}));
$("bist-btn").addEventListener("click", () => api("POST", "/api/bist", { ...chipPort(), frames: 2000 }).then(onJob).catch(() => {}));
$("kill-btn").addEventListener("click", () => api("POST", "/api/kill", { chip: $("device-chip").value }).then(onJob).catch(() => {}));
$("trace-btn").addEventListener("click", () => api("POST", "/api/trace", { from: Number($("trace-from").value), to: Number($("trace-to").value) })
  .then(onJob).catch(() => {}));

// ---------------------------------------------------------------- faults, log

function addFault(f) {
  const tr = document.createElement("tr");
  tr.innerHTML = `<td>${f.cycle}</td><td>${f.type} ${f.chip}</td><td>${f.fault}</td><td>${f.port}</td><td>${f.seq}</td>`;
  $("faults-table").tBodies[0].appendChild(tr);
}
async function loadFaults() {
  const faults = await api("GET", "/api/faults");
  $("faults-table").tBodies[0].innerHTML = "";
  faults.forEach(addFault);
}
async function loadLog() {
  $("log-lines").textContent = (await api("GET", "/api/log")).join("\n");
  (await api("GET", "/api/jobs")).forEach(onJob);
}

// ---------------------------------------------------------------- traffic

let samples = [];
$("watch-btn").addEventListener("click", async () => {
  await api("POST", "/api/watch", { chip: $("watch-chip").value }).catch(() => {});
  samples = [];
  plot();
});
$("alltoall-start").addEventListener("click", () => api("POST", "/api/alltoall", { interval: Number($("alltoall-interval").value) }).then(onJob).catch(() => {}));
$("alltoall-stop").addEventListener("click", () => api("POST", "/api/alltoall", { interval: 0 }).then(onJob).catch(() => {}));

function plot() {
  const svg = $("traffic-plot");
  const w = 900, h = 320, left = 60, bottom = 30, right = 110;
  const rates = [];
  for (let i = 1; i < samples.length; i++) {
    const dc = samples[i].cycle - samples[i - 1].cycle;
    rates.push({ cycle: samples[i].cycle, ports: samples[i].flitsReceived.map((v, p) => {
      const u = samples[i - 1].flitsReceived[p];
      return v === null || u === null || dc <= 0 ? 0 : ((v - u) * 1000) / dc;
    }) });
  }
  let max = 1;
  rates.forEach((r) => r.ports.forEach((v) => (max = Math.max(max, v))));
  const x0 = rates.length ? rates[0].cycle : 0, x1 = rates.length ? rates[rates.length - 1].cycle : 1;
  const sx = (c) => left + ((c - x0) / Math.max(1, x1 - x0)) * (w - left - right);
  const sy = (v) => h - bottom - (v / max) * (h - bottom - 10);
  let out = `<line x1="${left}" y1="${h - bottom}" x2="${w - right}" y2="${h - bottom}" stroke="#444"/>`
    + `<line x1="${left}" y1="10" x2="${left}" y2="${h - bottom}" stroke="#444"/>`
    + `<text x="4" y="16" font-size="11">${max.toFixed(0)}</text><text x="4" y="${h - bottom}" font-size="11">0</text>`
    + `<text x="${left}" y="${h - 8}" font-size="11">cycle ${x0.toLocaleString("en")}</text>`
    + `<text x="${w - right - 110}" y="${h - 8}" font-size="11">cycle ${x1.toLocaleString("en")}</text>`
    + `<text x="4" y="${h / 2}" font-size="11" transform="rotate(-90 12 ${h / 2})">flits / 1,000 cycles</text>`;
  const colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  let legend = 0;
  for (let p = 0; p < 24; p++) {
    if (!rates.some((r) => r.ports[p] > 0)) continue;
    const c = colours[p % colours.length];
    out += `<polyline fill="none" stroke="${c}" stroke-width="1.5" points="${rates.map((r) => `${sx(r.cycle).toFixed(1)},${sy(r.ports[p]).toFixed(1)}`).join(" ")}"/>`;
    out += `<text x="${w - right + 12}" y="${20 + 13 * legend++}" font-size="11" fill="${c}">port ${p}</text>`;
  }
  svg.innerHTML = out;
  const failed = samples.reduce((n, s) => n + (s.failures || 0), 0);
  $("traffic-info").textContent = `${samples.length} samples of ${samples.length ? samples[0].chip : "no NRC"}: flits received per 1,000 cycles on each port with traffic`
    + (failed ? `; ${failed} reads failed (no answer: is the NRC reachable?)` : "");
}

// ---------------------------------------------------------------- live updates

function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("machine", (e) => machineLine(JSON.parse(e.data)));
  es.addEventListener("job", (e) => onJob(JSON.parse(e.data)));
  es.addEventListener("fault", (e) => { addFault(JSON.parse(e.data)); refreshMachine(); });
  es.addEventListener("log", (e) => {
    const l = $("log-lines");
    l.textContent += (l.textContent ? "\n" : "") + JSON.parse(e.data);
  });
  es.addEventListener("traffic", (e) => {
    samples.push(JSON.parse(e.data));
    if (samples.length > 120) samples.shift();
    plot();
  });
}

$("token-state").textContent = token() ? "token set: actions enabled" : "no token: open the URL printed at start to act";
connect();
loadLevels().then(() => show("topology"));
loadChips();
refreshMachine();
setInterval(refreshMachine, 2000);
