// Prueba el reproductor de trazas (book/reproductor/reproductor.js) en
// Chromium sin interfaz, sobre el libro ya construido, servido en loopback
// bajo una ruta base como la de GitHub Pages (/curso-async/):
//
// - cada página con reproductor carga sin errores en la consola, y ninguna
//   petición sale del sitio;
// - `?paso=N` enseña exactamente el estado que da la traza tras N eventos
//   (largos de las colas, números de tarea, casillas), en varios pasos;
// - avanzar y retroceder con los botones y con el teclado vuelve al mismo
//   estado, y el paso queda en la dirección y en `data-paso`;
// - a 390 px de ancho no hay desbordamiento horizontal;
// - al imprimir se ven el estado inicial y el final, y no los controles.
//
// Uso: node reproductor.mjs CARPETA_DEL_LIBRO   (p. ej. target/libro, de `cargo libro --solo-construir`)
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFileSync, statSync } from "node:fs";
import { join, normalize, extname } from "node:path";

const carpeta = process.argv[2];
if (!carpeta) {
  console.error("uso: node reproductor.mjs CARPETA_DEL_LIBRO");
  process.exit(2);
}
const BASE = "/curso-async/";
const TIPOS = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json",
  ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf",
};

// Un servidor estático mínimo: solo la carpeta del libro, solo bajo BASE.
const servidor = createServer((pet, res) => {
  const ruta = decodeURIComponent(new URL(pet.url, "http://x").pathname);
  if (!ruta.startsWith(BASE)) { res.writeHead(404); res.end(); return; }
  let archivo = normalize(join(carpeta, ruta.slice(BASE.length)));
  try {
    if (statSync(archivo).isDirectory()) archivo = join(archivo, "index.html");
    const cuerpo = readFileSync(archivo);
    res.writeHead(200, { "content-type": TIPOS[extname(archivo)] ?? "application/octet-stream" });
    res.end(cuerpo);
  } catch {
    res.writeHead(404); res.end();
  }
});
await new Promise((ok) => servidor.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${servidor.address().port}${BASE}`;
const origen = new URL(base).origin;

const PAGINAS = {
  "08-robo-de-trabajo.html": [
    "trazas/reparto-2.json", "trazas/desborde.json",
    // Las grabadas del Tokio de verdad (lessons/08-robo-de-trabajo, `--bin grabador`).
    "trazas/tokio-reparto.json", "trazas/tokio-robo.json", "trazas/tokio-desborde.json",
  ],
  "09-tu-planificador.html": ["trazas/tope-lifo.json", "trazas/robo-carrera.json", "trazas/duerme-despierta.json", "trazas/reparto-4.json"],
  "13-determinismo.html": ["trazas/cajeros.json"],
};

const problemas = [];
const problema = (donde, texto) => problemas.push(`${donde}: ${texto}`);
const trazas = {};
for (const lista of Object.values(PAGINAS)) {
  for (const t of lista) trazas[t] = JSON.parse(readFileSync(join(carpeta, t), "utf8"));
}
const estadoEn = (traza, n) => (n === 0 ? traza.inicial : traza.eventos[n - 1].estado);

const navegador = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

async function abrir(contexto, ruta) {
  const pagina = await contexto.newPage();
  pagina.setDefaultTimeout(30000);
  pagina.on("console", (m) => { if (m.type() === "error") problema(ruta, `error en la consola: ${m.text()}`); });
  pagina.on("pageerror", (e) => problema(ruta, `excepción: ${e.message}`));
  pagina.on("request", (p) => {
    const u = p.url();
    if (!u.startsWith(origen) && !u.startsWith("data:") && !u.startsWith("blob:")) problema(ruta, `petición fuera del sitio: ${u}`);
  });
  await pagina.goto(new URL(ruta, base).href, { waitUntil: "load" });
  await pagina.waitForFunction(
    () => [...document.querySelectorAll(".reproductor[data-traza]")].every((r) => r.dataset.listo || r.dataset.error),
  );
  const errores = await pagina.$$eval(".reproductor[data-error]", (rs) => rs.map((r) => `${r.dataset.traza}: ${r.dataset.error}`));
  errores.forEach((e) => problema(ruta, `no cargó la traza ${e}`));
  return pagina;
}

/** Lo que enseña un reproductor ahora, leído del DOM. */
async function leeEstado(pagina, selector) {
  return pagina.$eval(selector, (raiz) => {
    const pantalla = raiz.querySelector(".rep-pantalla .rep-estado");
    const columnas = [...pantalla.querySelectorAll(".rep-columna")].map((c) => {
      const o = { dormido: c.classList.contains("rep-dormido") };
      c.querySelectorAll("[data-casilla]").forEach((k) => { o[k.dataset.casilla] = k.dataset.valor; });
      c.querySelectorAll("[data-lista]").forEach((l) => {
        o[l.dataset.lista] = { largo: Number(l.dataset.largo), ids: l.dataset.ids, fichas: l.querySelectorAll(".rep-ficha").length };
      });
      return o;
    });
    const comunes = {};
    pantalla.querySelectorAll("[data-comun]").forEach((l) => { comunes[l.dataset.comun] = { largo: Number(l.dataset.largo), ids: l.dataset.ids }; });
    return { paso: Number(raiz.dataset.paso), columnas, comunes, texto: raiz.querySelector(".rep-texto").textContent };
  });
}

/** Compara lo que enseña el reproductor con el estado de la traza tras n eventos. */
function compara(donde, traza, n, visto) {
  const esperado = estadoEn(traza, n);
  if (visto.paso !== n) problema(donde, `data-paso es ${visto.paso}, no ${n}`);
  const texto = n === 0 ? null : traza.eventos[n - 1].texto;
  if (texto !== null && visto.texto !== texto) problema(donde, `paso ${n}: el texto no es el de la traza`);
  traza.columnas.forEach((nombre, i) => {
    const e = esperado.columnas[i];
    const v = visto.columnas[i];
    if (!v) { problema(donde, `paso ${n}: falta la columna ${nombre}`); return; }
    if (v.dormido !== !!e.dormido) problema(donde, `paso ${n}, ${nombre}: dormido ${v.dormido}, la traza dice ${e.dormido}`);
    for (const c of traza.casillas) {
      const quiere = e[c.clave] === null || e[c.clave] === undefined ? "" : String(e[c.clave]);
      if (v[c.clave] !== quiere) problema(donde, `paso ${n}, ${nombre}, ${c.nombre}: «${v[c.clave]}», la traza dice «${quiere}»`);
    }
    for (const l of traza.listas) {
      const quiere = e[l.clave] ?? [];
      const lv = v[l.clave];
      if (!lv || lv.largo !== quiere.length || lv.ids !== quiere.join("|")) {
        problema(donde, `paso ${n}, ${nombre}, ${l.nombre}: ${JSON.stringify(lv)}, la traza dice ${JSON.stringify(quiere)}`);
      }
      if (lv && lv.fichas !== Math.min(quiere.length, 40)) problema(donde, `paso ${n}, ${nombre}: ${lv.fichas} fichas dibujadas`);
    }
  });
  for (const c of traza.comunes) {
    const quiere = esperado.comunes[c.clave] ?? [];
    const cv = visto.comunes[c.clave];
    // Una cola de la que solo se sabe cuántas tareas tiene (la global de Tokio).
    if (typeof quiere === "number") {
      if (!cv || cv.largo !== quiere) problema(donde, `paso ${n}, ${c.nombre}: ${JSON.stringify(cv)}, la traza dice ${quiere}`);
      continue;
    }
    if (!cv || cv.largo !== quiere.length || cv.ids !== quiere.join("|")) {
      problema(donde, `paso ${n}, ${c.nombre}: ${JSON.stringify(cv)}, la traza dice ${JSON.stringify(quiere)}`);
    }
  }
}

const contexto = await navegador.newContext({ viewport: { width: 1280, height: 900 } });
let comprobados = 0;
for (const [ruta, lista] of Object.entries(PAGINAS)) {
  // 1. La página carga sin errores y con un reproductor por traza.
  const pagina = await abrir(contexto, ruta);
  const vistas = await pagina.$$eval(".reproductor[data-listo]", (rs) => rs.map((r) => r.dataset.traza));
  if (JSON.stringify(vistas) !== JSON.stringify(lista)) problema(ruta, `reproductores ${JSON.stringify(vistas)}, se esperaban ${JSON.stringify(lista)}`);
  const ids = await pagina.$$eval(".reproductor[data-traza]", (rs) => rs.map((r) => r.id));
  await pagina.close();

  for (const [indice, t] of lista.entries()) {
    const traza = trazas[t];
    const total = traza.eventos.length;
    // Varios pasos: el inicio, el primero, el del medio, el último y los
    // primeros momentos señalados (robo, desborde, tope, despertar, invariante).
    const pasos = [0, 1, Math.floor(total / 2), total]
      .concat(traza.eventos.flatMap((e, i) => (["robo", "desborde", "tope", "despierta", "invariante"].includes(e.tipo) ? [i + 1] : [])).slice(0, 2));
    const id = ids[indice];
    const selector = `#${id}`;
    // 2. `?paso=N` abre el estado de la traza tras N eventos.
    for (const n of [...new Set(pasos)]) {
      const consulta = indice === 0 ? `?paso=${n}` : `?paso=${n}&reproductor=${id}`;
      const p = await abrir(contexto, ruta + consulta);
      compara(`${ruta}${consulta}`, traza, n, await leeEstado(p, selector));
      comprobados++;
      await p.close();
    }
    // 3. Adelante y atrás (botones y teclado) vuelven al mismo estado; la
    //    dirección lleva el paso.
    const n = Math.min(5, total - 1);
    const p = await abrir(contexto, ruta + (indice === 0 ? `?paso=${n}` : `?paso=${n}&reproductor=${id}`));
    const antes = await leeEstado(p, selector);
    await p.click(`${selector} button[aria-label="Paso adelante"]`);
    await p.click(`${selector} button[aria-label="Paso adelante"]`);
    compara(`${ruta} tras dos pasos adelante`, traza, n + 2, await leeEstado(p, selector));
    if (!p.url().includes(`paso=${n + 2}`)) problema(ruta, `la dirección no lleva el paso ${n + 2}: ${p.url()}`);
    await p.click(`${selector} button[aria-label="Paso atrás"]`);
    await p.click(`${selector} button[aria-label="Paso atrás"]`);
    const despues = await leeEstado(p, selector);
    if (JSON.stringify(antes) !== JSON.stringify(despues)) problema(ruta, `${t}: adelante y atrás no vuelve al mismo estado`);
    await p.focus(selector);
    await p.keyboard.press("ArrowRight");
    compara(`${ruta} con la flecha derecha`, traza, n + 1, await leeEstado(p, selector));
    await p.keyboard.press("ArrowLeft");
    compara(`${ruta} con la flecha izquierda`, traza, n, await leeEstado(p, selector));
    await p.keyboard.press("End");
    compara(`${ruta} con Fin`, traza, total, await leeEstado(p, selector));
    await p.close();
  }
}

// 4. A 390 px: nada se sale por los lados.
const movil = await navegador.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
for (const ruta of Object.keys(PAGINAS)) {
  const p = await abrir(movil, ruta);
  const anchos = await p.$$eval(".reproductor", (rs) => rs.map((r) => [r.id, r.scrollWidth, r.clientWidth]));
  for (const [id, scroll, cliente] of anchos) {
    if (scroll > cliente + 1) problema(`${ruta} a 390 px`, `#${id} desborda: ${scroll} px de contenido en ${cliente} px`);
  }
  // 5. Al imprimir: el estado inicial y el final, sin controles.
  await p.emulateMedia({ media: "print" });
  const impreso = await p.$$eval(".reproductor", (rs) => rs.map((r) => ({
    id: r.id,
    controles: getComputedStyle(r.querySelector(".rep-pantalla")).display,
    estados: [...r.querySelectorAll(".rep-impreso .rep-estado")].filter((e) => e.offsetHeight > 0).length,
  })));
  for (const i of impreso) {
    if (i.controles !== "none") problema(`${ruta} al imprimir`, `#${i.id} enseña los controles`);
    if (i.estados !== 2) problema(`${ruta} al imprimir`, `#${i.id} enseña ${i.estados} estados, no el inicial y el final`);
  }
  await p.close();
}

await navegador.close();
servidor.close();
if (problemas.length > 0) {
  console.error(`El reproductor tiene ${problemas.length} problema(s):`);
  problemas.forEach((p) => console.error(`  - ${p}`));
  process.exit(1);
}
console.log(`Reproductor: ${Object.keys(trazas).length} trazas en ${Object.keys(PAGINAS).length} páginas, ${comprobados} pasos comprobados contra los datos; sin errores ni peticiones fuera del sitio.`);
