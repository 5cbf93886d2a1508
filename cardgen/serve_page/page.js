// cardgen serve: the live page. Plain JavaScript, no build step, nothing from another site.
// The server says on /events when its state changed; the page then reads /state and redraws,
// keeping the scroll position, the enlarged card and the chosen element.
"use strict";

const view = { tab: "cards", side: "front", player: "all", hints: false, enlarged: null, chosen: null };
let state = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function refresh() {
  const response = await fetch("/state", { cache: "no-store" });
  if (!response.ok) return;
  state = await response.json();
  draw();
}

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("state", refresh);
  events.onerror = () => {
    const status = document.getElementById("status");
    status.textContent = "not connected: is cardgen serve still running?";
    status.className = "busy";
  };
}

function faceOf(key) {
  for (const deck of state.decks) {
    for (const face of deck.faces) if (face.key === key) return { deck, face };
  }
  return null;
}

function shown(deck, face) {
  if (face.side !== view.side) return false;
  if (view.player === "all" || face.player === null || !deck.players.length) return true;
  return String(face.player) === view.player;
}

function where(location) {
  return el("span", { class: "where" }, location || "");
}

// --- drawing ------------------------------------------------------------------------

function draw() {
  const y = window.scrollY;
  drawStatus();
  drawError();
  drawPlayers();
  drawCards();
  drawSheets();
  drawFindings();
  drawPlaytest();
  drawEnlarged();
  drawChosen();
  window.scrollTo(0, y);
}

function drawStatus() {
  const status = document.getElementById("status");
  const built = state.built;
  if (state.building) {
    status.textContent = "building…";
    status.className = "busy";
  } else if (built) {
    const changed = built.changed.length ? ` after ${built.changed.join(", ")} changed` : "";
    status.textContent = `build ${state.builds} at ${built.at} in ${built.seconds.toFixed(2)} s${changed}`;
    status.className = "";
  }
  status.dataset.generation = state.generation;
  status.dataset.builds = state.builds;
  const names = state.decks.map((deck) => deck.name);
  document.getElementById("title").textContent = names.length ? names.join(" · ") : "cardgen";
  document.title = (names.length ? names.join(", ") : "cardgen") + " · cardgen serve";
}

function drawError() {
  const box = document.getElementById("error");
  const error = state.error;
  box.hidden = !error;
  document.querySelector("main").classList.toggle("broken", Boolean(error));
  if (!error) return;
  box.querySelector(".what").textContent = state.decks.length
    ? "The last save does not build; below is the last good build."
    : "The decks do not build yet.";
  document.getElementById("error-location").textContent = error.location || "";
  document.getElementById("error-text").textContent = error.location ? error.text.replace(error.location + ": ", "")
    : error.text;
}

function drawPlayers() {
  const select = document.getElementById("player");
  const players = [];
  for (const deck of state.decks) deck.players.forEach((name, i) => { if (players[i] === undefined) players[i] = name; });
  select.hidden = !players.length;
  const wanted = ["all", ...players.map((_, i) => String(i))];
  if ([...select.options].map((o) => o.value).join() !== wanted.join()) {
    select.replaceChildren(el("option", { value: "all" }, "every player"),
      ...players.map((name, i) => el("option", { value: String(i) }, name)));
  }
  if (!wanted.includes(view.player)) view.player = "all";
  select.value = view.player;
}

function cardBox(deck, face, onElement) {
  const card = el("div", { class: "card" });
  card.style.aspectRatio = `${deck.width} / ${deck.height}`;
  card.append(el("img", { src: face.image, alt: face.cards.join(", ") || face.key, dataset: { key: face.key } }));
  if (view.hints) {
    face.elements.forEach((element, index) => {
      const label = element.name || element.type;
      const box = el("div", { class: "box", title: `${label} (${element.type})`,
                              dataset: { element: label, index: String(index) } }, el("span", {}, label));
      const [x, y, w, h] = element.box;
      Object.assign(box.style, { left: `${x * 100}%`, top: `${y * 100}%`, width: `${w * 100}%`, height: `${h * 100}%` });
      if (view.chosen && view.chosen.key === face.key && view.chosen.index === index) box.classList.add("chosen");
      box.addEventListener("click", (event) => {
        event.stopPropagation();
        view.chosen = { key: face.key, index };
        drawChosen();
        for (const other of document.querySelectorAll(".box.chosen")) other.classList.remove("chosen");
        for (const same of document.querySelectorAll(`.card img[data-key="${CSS.escape(face.key)}"]`)) {
          const mine = same.parentElement.querySelector(`.box[data-index="${index}"]`);
          if (mine) mine.classList.add("chosen");
        }
      });
      card.append(box);
    });
  }
  return card;
}

function caption(face) {
  const cards = face.cards.length > 3 ? `${face.cards.slice(0, 3).join(", ")} … (${face.cards.length} cards)`
    : face.cards.join(", ");
  return `${cards}${face.copies > 1 ? ` ×${face.copies}` : ""}`;
}

function drawCards() {
  const root = document.getElementById("cards");
  root.hidden = view.tab !== "cards";
  const decks = state.decks.map((deck) => {
    const faces = deck.faces.filter((face) => shown(deck, face)).map((face) => {
      const figure = el("figure", { class: "face", dataset: { key: face.key } }, cardBox(deck, face),
        el("figcaption", {}, caption(face)));
      figure.addEventListener("click", () => enlarge(face.key));
      return figure;
    });
    return el("section", { class: "deck", dataset: { deck: deck.id } },
      el("h2", {}, deck.name, " ", el("small", {}, deck.file)), el("div", { class: "grid" }, ...faces));
  });
  root.replaceChildren(...decks);
}

function drawSheets() {
  const root = document.getElementById("sheets");
  root.hidden = view.tab !== "sheets";
  if (!state.sheets.length) {
    root.replaceChildren(el("p", { class: "none" }, "This build writes no sheets: add --format pdf to see them."));
    return;
  }
  root.replaceChildren(...state.sheets.map((pdf) => el("section", { class: "pdf" }, el("h3", {}, pdf.file),
    pdf.pages === null ? el("p", { class: "none" }, "drawing the pages…") : "",
    pdf.error ? el("p", {}, pdf.error) : "",
    el("div", { class: "sheet-pages" }, ...(pdf.pages || []).map((src, i) =>
      el("figure", {}, el("img", { src, alt: `${pdf.file} page ${i + 1}` }),
        el("figcaption", {}, `page ${i + 1} of ${pdf.pages.length}`)))))));
}

function drawFindings() {
  const list = document.getElementById("findings");
  const findings = state.error && state.error.findings.length ? state.error.findings
    : state.decks.flatMap((deck) => deck.findings);
  if (!findings.length) {
    list.replaceChildren(el("li", { class: "none" }, state.error ? "none until the deck builds again" : "none: every check passes"));
    return;
  }
  list.replaceChildren(...findings.map((finding) => {
    const item = el("li", { class: finding.severity }, el("span", { class: "severity" }, finding.severity), " ",
      where(finding.location), el("br"));
    const face = finding.face || firstFaceOf(finding.card);
    if (finding.card && face) {
      const link = el("a", { href: "#", dataset: { key: face } }, `card '${finding.card}'`);
      link.addEventListener("click", (event) => { event.preventDefault(); enlarge(face); });
      item.append(link, ": ");
    } else if (finding.card) {
      item.append(`card '${finding.card}': `);
    }
    item.append(finding.message);
    return item;
  }));
}

function firstFaceOf(cardId) {
  if (!cardId) return null;
  for (const deck of state.decks) {
    for (const face of deck.faces) if (face.side === "front" && face.cards.includes(cardId)) return face.key;
  }
  return null;
}

function percent(x) { return `${(100 * x).toFixed(1)}%`; }

function drawPlaytest() {
  const root = document.getElementById("playtest");
  const parts = state.decks.map((deck) => {
    const report = deck.playtest;
    const head = el("h3", {}, deck.name);
    if (!report) return el("div", {}, head, el("p", { class: "none" }, `no game engine (game: ${deck.game})`));
    if (report.status === "pending") return el("div", {}, head, el("p", { class: "none" }, "playing…"));
    if (report.status === "error") return el("div", {}, head, el("p", {}, report.text));
    const rows = [["games", `${report.games} (${report.policy} play, seed ${report.seed})`],
      ["completion", `${percent(report.completion)} reached an end`],
      ...report.seat_win_rates.map((seat) => [`seat ${seat.seat + 1} wins`,
        `${percent(seat.rate)} (95% CI ${percent(seat.wilson_low)}–${percent(seat.wilson_high)})`]),
      ["length", `mean ${report.mean_length.toFixed(1)}, median ${report.median_length} moves ` +
        `(${report.min_length}–${report.max_length})`]];
    return el("div", { class: "report" }, head,
      el("table", {}, ...rows.map(([name, value]) => el("tr", {}, el("td", {}, name), el("td", {}, value)))),
      el("p", {}, report.verdict));
  });
  root.replaceChildren(...parts);
}

function enlarge(key) {
  view.enlarged = key;
  drawEnlarged();
  const dialog = document.getElementById("enlarged");
  if (!dialog.open) dialog.showModal();
}

function drawEnlarged() {
  const dialog = document.getElementById("enlarged");
  if (!view.enlarged) return;
  const found = faceOf(view.enlarged);
  const holder = dialog.querySelector(".enlarged-card");
  const text = dialog.querySelector(".caption");
  if (!found) {
    text.textContent = "This face is no longer in the deck.";
    return;
  }
  const { deck, face } = found;
  holder.replaceChildren(cardBox(deck, face));
  text.replaceChildren(`${face.side === "front" ? "Front" : "Back"}: ${caption(face)}`,
    face.location ? " · card at " : "", face.location ? where(face.location) : "",
    face.layout ? ` · layout '${face.layout}'` : ` · drawn by the '${face.kind}' kind`);
}

function drawChosen() {
  const info = document.getElementById("element-info");
  const found = view.chosen && faceOf(view.chosen.key);
  const element = found && found.face.elements[view.chosen.index];
  if (!element) {
    info.textContent = view.hints ? "Click an element of a card." : "Turn on hints and click an element of a card.";
    return;
  }
  info.replaceChildren(`layout '${found.face.layout}', element '${element.name || element.type}' (${element.type})`,
    el("br"), "defined at ", el("code", { id: "element-location" }, element.location || "(built in)"));
}

// --- controls -----------------------------------------------------------------------

function setTab(tab) {
  view.tab = tab;
  document.getElementById("view-cards").setAttribute("aria-pressed", String(tab === "cards"));
  document.getElementById("view-sheets").setAttribute("aria-pressed", String(tab === "sheets"));
  document.getElementById("controls").disabled = tab !== "cards";
  if (state) draw();
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("view-cards").addEventListener("click", () => setTab("cards"));
  document.getElementById("view-sheets").addEventListener("click", () => setTab("sheets"));
  for (const radio of document.querySelectorAll('input[name="side"]')) {
    radio.addEventListener("change", () => { view.side = radio.value; if (state) draw(); });
  }
  document.getElementById("player").addEventListener("change", (event) => { view.player = event.target.value; draw(); });
  document.getElementById("hints").addEventListener("change", (event) => { view.hints = event.target.checked; if (state) draw(); });
  document.getElementById("enlarged").addEventListener("close", () => { view.enlarged = null; });
  connect();
});
