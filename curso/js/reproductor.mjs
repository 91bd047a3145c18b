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
// - a 390 px de ancho no hay desbordamiento horizontal, y ninguna ficha se
//   parte dentro de una palabra;
// - al imprimir se ven el estado inicial y el final, y no los controles;
// - solo con el teclado: Tab llega a los controles, Intro y espacio los
//   pulsan, y el paso se anuncia en una región aria-live;
// - con prefers-reduced-motion, nada se anima y reproduce despacio;
// - el color no va solo: el tipo de evento, quién actúa y las alertas
//   llevan su etiqueta de texto (y queda una captura en gris para mirarla);
// - abierto desde sus archivos (file://), cada reproductor carga su traza.
//
// Los reproductores y sus trazas salen del HTML construido: una traza nueva
// en un capítulo se prueba sin tocar este archivo.
//
// Uso: node reproductor.mjs CARPETA_DEL_LIBRO [CARPETA_DE_CAPTURAS]
//   (p. ej. target/libro, de `cargo libro --solo-construir`)
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, normalize, extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [carpeta, capturas] = process.argv.slice(2);
if (!carpeta) {
  console.error("uso: node reproductor.mjs CARPETA_DEL_LIBRO [CARPETA_DE_CAPTURAS]");
  process.exit(2);
}
if (capturas) mkdirSync(capturas, { recursive: true });
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

// Cada página de capítulo con reproductores → sus trazas, en orden (también
// las grabadas del Tokio de verdad del capítulo 8, de lessons/08-robo-de-trabajo,
// `--bin grabador`).
const PAGINAS = {};
for (const f of readdirSync(carpeta).filter((f) => /^\d\d-.*\.html$/.test(f)).sort()) {
  const html = readFileSync(join(carpeta, f), "utf8");
  const trazas = [...html.matchAll(/<div\b[^>]*\bclass="reproductor"[^>]*>/g)]
    .map((m) => m[0].match(/\bdata-traza="([^"]+)"/)?.[1])
    .filter(Boolean);
  if (trazas.length > 0) PAGINAS[f] = trazas;
}
if (Object.keys(PAGINAS).length === 0) {
  console.error(`no hay ningún reproductor en ${carpeta}: ¿se construyó el libro?`);
  process.exit(1);
}

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
    // 2. `?paso=N` abre el estado de la traza tras N eventos (el del medio);
    //    en la misma página, la barra lleva a cada uno de los demás pasos.
    //    (Abrir la página una vez por paso costaba más de un minuto.)
    const medio = Math.floor(total / 2);
    const consulta = indice === 0 ? `?paso=${medio}` : `?paso=${medio}&reproductor=${id}`;
    const abierta = await abrir(contexto, ruta + consulta);
    compara(`${ruta}${consulta}`, traza, medio, await leeEstado(abierta, selector));
    comprobados++;
    for (const n of [...new Set(pasos)].filter((n) => n !== medio)) {
      await alPaso(abierta, selector, n);
      compara(`${ruta}, paso ${n} con la barra`, traza, n, await leeEstado(abierta, selector));
      comprobados++;
    }
    await abierta.close();
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

/** Lleva el reproductor `sel` al paso `n` con su barra, como quien la arrastra. */
async function alPaso(p, sel, n) {
  await p.$eval(`${sel} .rep-barra`, (b, n) => { b.value = String(n); b.dispatchEvent(new Event("input")); }, n);
}

// 6. Las fichas no se parten dentro de una palabra (a 390 px, en varios pasos).
for (const [ruta, lista] of Object.entries(PAGINAS)) {
  const p = await abrir(movil, ruta);
  const ids = await p.$$eval(".reproductor[data-listo]", (rs) => rs.map((r) => r.id));
  for (const [i, id] of ids.entries()) {
    const total = trazas[lista[i]].eventos.length;
    for (const n of [...new Set([1, Math.floor(total / 2), total])]) {
      await alPaso(p, `#${id}`, n);
      const partidas = await p.$eval(`#${id}`, (r) => {
        const salida = [];
        for (const f of r.querySelectorAll(".rep-pantalla .rep-ficha")) {
          const t = f.firstChild;
          if (!t || t.nodeType !== 3) continue;
          for (const m of t.textContent.matchAll(/\S+/g)) {
            const rango = document.createRange();
            rango.setStart(t, m.index);
            rango.setEnd(t, m.index + m[0].length);
            if (new Set([...rango.getClientRects()].map((c) => Math.round(c.top))).size > 1) salida.push(m[0]);
          }
        }
        return salida;
      });
      if (partidas.length > 0) problema(`${ruta} a 390 px, paso ${n}`, `#${id}: fichas partidas dentro de una palabra: ${partidas.slice(0, 3).join(", ")}`);
    }
  }
  await p.close();
}
await movil.close();

// 7. Solo con el teclado, con el anuncio del paso para los lectores de pantalla.
{
  const [ruta] = Object.keys(PAGINAS);
  const p = await abrir(contexto, ruta);
  const id = await p.$eval(".reproductor[data-listo]", (r) => r.id);
  const sel = `#${id}`;
  const enfocado = () => p.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName);
  const paso = () => p.$eval(sel, (r) => Number(r.dataset.paso));
  const anuncio = () => p.$eval(`${sel} .rep-anuncio`, (a) => ({ texto: a.textContent, vivo: a.getAttribute("aria-live") }));
  await p.focus(sel);
  await p.keyboard.press("Tab");
  if ((await enfocado()) !== "Al principio") problema(`${ruta} con el teclado`, `Tab desde el reproductor lleva a «${await enfocado()}», no a «Al principio»`);
  const vistos = [];
  for (let i = 0; i < 6 && (await enfocado()) !== "Paso adelante"; i++) {
    await p.keyboard.press("Tab");
    vistos.push(await enfocado());
  }
  if ((await enfocado()) !== "Paso adelante") {
    problema(`${ruta} con el teclado`, `Tab no llega a «Paso adelante» (pasa por ${vistos.join(", ")})`);
  } else {
    await p.keyboard.press("Enter");
    await p.keyboard.press("Space");
    if ((await paso()) !== 2) problema(`${ruta} con el teclado`, `Intro y espacio en «Paso adelante» dejan el paso ${await paso()}, no el 2`);
    const a = await anuncio();
    if (a.vivo !== "polite" || !a.texto.startsWith("Paso 2 de ")) problema(`${ruta} con el teclado`, `el anuncio del paso 2 es «${a.texto}» (aria-live=${a.vivo})`);
  }
  // Espacio con el foco en el reproductor: reproduce (y la región viva calla) y para.
  await p.focus(sel);
  await p.keyboard.press("Space");
  const reproduciendo = await p.$eval(`${sel} .rep-controles`, (c) => c.querySelector('[aria-label="Pausa"]') !== null);
  const callado = (await anuncio()).vivo === "off";
  const antes = await paso();
  await p.waitForFunction((s) => Number(document.querySelector(s).dataset.paso) > 3, sel, { timeout: 10000 }).catch(() => {});
  await p.keyboard.press("Space");
  const despues = await paso();
  const a = await anuncio();
  if (!reproduciendo || !callado || despues <= antes) {
    problema(`${ruta} con el teclado`, `el espacio no reproduce (botón de pausa: ${reproduciendo}, región viva callada: ${callado}, paso ${antes} → ${despues})`);
  }
  if (a.vivo !== "polite" || !a.texto.startsWith(`Paso ${despues} de `)) problema(`${ruta} con el teclado`, `al parar no anuncia el paso ${despues}: «${a.texto}»`);
  await p.close();
}

// 8. Con prefers-reduced-motion: sin animaciones y despacio.
{
  const quieto = await navegador.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  const [ruta] = Object.keys(PAGINAS);
  const p = await abrir(quieto, ruta);
  const r = await p.$eval(".reproductor[data-listo]", (r) => ({
    velocidad: r.querySelector(".rep-velocidad select").value,
    transicion: getComputedStyle(r.querySelector(".rep-boton")).transitionDuration,
  }));
  if (r.velocidad !== "2000") problema(`${ruta} con menos movimiento`, `la velocidad por defecto es ${r.velocidad} ms, no la lenta`);
  if (!/^0s(, 0s)*$/.test(r.transicion)) problema(`${ruta} con menos movimiento`, `los botones se animan (${r.transicion})`);
  await p.close();
  await quieto.close();
}

// 9. El color no va solo: un robo y una alerta llevan su etiqueta, y quien actúa, su marca.
{
  let gris = false;
  for (const [ruta, lista] of Object.entries(PAGINAS)) {
    const p = await abrir(contexto, ruta);
    const ids = await p.$$eval(".reproductor[data-listo]", (rs) => rs.map((r) => r.id));
    for (const [i, id] of ids.entries()) {
      const traza = trazas[lista[i]];
      const robo = traza.eventos.findIndex((e) => e.tipo === "robo");
      const alerta = traza.eventos.findIndex((e) => e.alerta);
      for (const [n, quiere] of [[robo, "Robo"], [alerta, "Alerta"]]) {
        if (n < 0) continue;
        await alPaso(p, `#${id}`, n + 1);
        const visto = await p.$eval(`#${id}`, (r) => ({
          tipo: r.querySelector(".rep-pantalla .rep-tipo").innerText,
          actua: r.querySelector(".rep-pantalla .rep-activa .rep-actua")?.innerText ?? null,
        }));
        if (!visto.tipo.includes(quiere)) problema(`${ruta}`, `#${id}, paso ${n + 1}: la etiqueta del evento dice «${visto.tipo}», no «${quiere}»`);
        const columna = traza.eventos[n].columna;
        if (columna !== null && columna !== undefined && !/actúa/.test(visto.actua ?? "")) {
          problema(`${ruta}`, `#${id}, paso ${n + 1}: la columna que actúa no lo dice con texto`);
        }
        if (capturas && !gris && quiere === "Robo") {
          await p.evaluate(() => { document.documentElement.style.filter = "grayscale(1)"; });
          await p.locator(`#${id}`).screenshot({ path: join(capturas, "reproductor-gris.png") });
          await p.evaluate(() => { document.documentElement.style.filter = ""; });
          gris = true;
        }
      }
    }
    await p.close();
  }
}

// 10. Desde los archivos (file://), sin servidor: cada traza va dentro de la página.
{
  const local = await navegador.newContext();
  for (const ruta of Object.keys(PAGINAS)) {
    const p = await local.newPage();
    p.on("pageerror", (e) => problema(`${ruta} (file://)`, `excepción: ${e.message}`));
    await p.goto(pathToFileURL(resolve(carpeta, ruta)).href, { waitUntil: "load" });
    await p.waitForFunction(() => [...document.querySelectorAll(".reproductor[data-traza]")].every((r) => r.dataset.listo || r.dataset.error));
    const errores = await p.$$eval(".reproductor[data-error]", (rs) => rs.map((r) => `${r.id}: ${r.dataset.error}`));
    for (const e of errores) problema(`${ruta} (file://)`, `no carga la traza de ${e}`);
    await p.close();
  }
  await local.close();
}

await navegador.close();
servidor.close();
if (problemas.length > 0) {
  console.error(`El reproductor tiene ${problemas.length} problema(s):`);
  problemas.forEach((p) => console.error(`  - ${p}`));
  process.exit(1);
}
console.log(`Reproductor: ${Object.keys(trazas).length} trazas en ${Object.keys(PAGINAS).length} páginas, ${comprobados} pasos comprobados contra los datos; sin errores ni peticiones fuera del sitio.`);
