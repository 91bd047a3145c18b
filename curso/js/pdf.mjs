// El libro entero en PDF, para leerlo en papel o sin red: Chromium imprime
// `print.html` (la página de mdBook con todos los capítulos) con los
// diagramas ya dibujados, las gráficas a lo ancho de la página, cada capítulo
// en una página nueva (mdBook pone el salto) y, delante, un índice con el
// número de página de cada capítulo y enlaces a él. El PDF lleva además
// marcadores (el índice lateral del visor) y etiquetas de accesibilidad.
//
// Chromium no sabe poner números de página en un índice (CSS
// `target-counter` no existe para él), así que se imprime dos veces: la
// primera con el índice sin números, para saber (con `pdftotext`, de
// poppler-utils) en qué página empieza cada capítulo; la segunda con los
// números, que ocupan lo mismo y no mueven nada. Después se comprueba.
//
// Uso: node pdf.mjs CARPETA_DEL_LIBRO [SALIDA.pdf]
//   (por defecto, CARPETA_DEL_LIBRO/rust-asincrono-por-dentro.pdf: el flujo
//   de Pages lo publica con el sitio). Chromium: la variable CHROMIUM o el
//   primero que haya en el PATH.
// Desde otro guion: `hacerPdf(navegador, carpeta, salida)` con un navegador
// de Playwright ya abierto (navegador.mjs).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** El nombre del PDF, junto a print.html en el sitio publicado (los capítulos lo enlazan). */
export const NOMBRE_DEL_PDF = "rust-asincrono-por-dentro.pdf";

/** Las opciones con las que se lanza Chromium en las pruebas del curso. */
export const ARGUMENTOS_DE_CHROMIUM = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
];

/** Chromium o Chrome: la variable CHROMIUM o el primero que esté en el PATH. */
export function buscarChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const n of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]) {
      if (existsSync(join(dir, n))) return join(dir, n);
    }
  }
  throw new Error("no encuentro Chromium ni Chrome en el PATH; instálalo o dime dónde con CHROMIUM=ruta");
}

/** El texto sin espacios de más, para comparar el del PDF con los títulos. */
const normal = (t) => t.normalize("NFC").replace(/\s+/g, " ").trim();

/** El texto de cada página de un PDF (pdftotext separa las páginas con \f). */
export function textoDePaginas(pdf) {
  let texto;
  try {
    texto = execFileSync("pdftotext", ["-enc", "UTF-8", pdf, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
  } catch (e) {
    if (e.code === "ENOENT") throw new Error("falta pdftotext: instala poppler-utils (Debian y Ubuntu: apt-get install poppler-utils)");
    throw e;
  }
  const paginas = texto.split("\f");
  if (paginas.at(-1).trim() === "") paginas.pop();
  return paginas.map(normal);
}

/**
 * La página (desde 1) en que empieza cada capítulo: la primera, a partir de
 * `desde`, cuyo texto empieza por su título. Devuelve null si alguno no sale.
 */
export function paginasDeCapitulos(paginas, titulos, desde) {
  const salida = [];
  let i = desde;
  for (const t of titulos) {
    const buscado = normal(t).slice(0, 40);
    while (i < paginas.length && !paginas[i].startsWith(buscado)) i++;
    if (i >= paginas.length) return null;
    salida.push(i + 1);
    i++;
  }
  return salida;
}

const PIE = `<div style="font-size: 9px; width: 100%; text-align: center; color: #555;">
  <span class="pageNumber"></span> / <span class="totalPages"></span></div>`;
const OPCIONES_DE_PDF = {
  format: "A4",
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: "<span></span>",
  footerTemplate: PIE,
  margin: { top: "16mm", bottom: "18mm", left: "14mm", right: "14mm" },
  outline: true,
  tagged: true,
};

/**
 * Imprime el libro de `carpeta` (su print.html) en `salida` con el navegador
 * de Playwright `navegador`. Devuelve { paginas, capitulos: [{titulo, pagina}],
 * diagrama (unos textos del primer diagrama), texto (el de cada página),
 * bytes, segundos }.
 */
export async function hacerPdf(navegador, carpeta, salida) {
  const inicio = Date.now();
  const contexto = await navegador.newContext({ viewport: { width: 1000, height: 1400 } });
  // print.html llama a window.print() al cargar: aquí imprime Playwright.
  await contexto.addInitScript(() => { window.print = () => {}; });
  const pagina = await contexto.newPage();
  pagina.setDefaultTimeout(120000);
  const errores = [];
  pagina.on("pageerror", (e) => errores.push(e.message));
  await pagina.goto(pathToFileURL(resolve(carpeta, "print.html")).href, { waitUntil: "load", timeout: 120000 });
  // Que esté todo dibujado: diagramas, reproductores, imágenes y letras.
  await pagina.waitForFunction(() =>
    [...document.querySelectorAll("pre.mermaid")].every((d) => d.querySelector("svg"))
    && [...document.querySelectorAll(".reproductor[data-traza]")].every((r) => r.dataset.listo || r.dataset.error)
    && [...document.images].every((i) => i.complete), null, { timeout: 120000 });
  await pagina.evaluate(() => document.fonts.ready);
  if (errores.length > 0) throw new Error(`print.html falla en el navegador: ${errores.join("; ")}`);
  // Unos cuantos textos del primer diagrama, para encontrarlo en el PDF.
  const etiquetas = await pagina.evaluate(() => {
    const svg = document.querySelector("main pre.mermaid svg");
    const textos = svg ? [...svg.querySelectorAll("text, foreignObject div, foreignObject span")].map((t) => t.textContent.trim()) : [];
    return [...new Set(textos.filter((t) => t.length >= 4))].slice(0, 5);
  });

  // El índice, delante de todo, con una casilla de tamaño fijo para el número.
  const titulos = await pagina.evaluate(() => {
    const main = document.querySelector("main");
    const caps = [...main.querySelectorAll("h1[id]")];
    const nav = document.createElement("nav");
    nav.className = "indice-impreso";
    nav.setAttribute("aria-label", "Índice");
    const estilo = document.createElement("style");
    estilo.textContent = `
      .indice-impreso { break-after: page; font-size: 13pt; }
      .indice-impreso h1 { font-size: 24pt; margin: 0 0 4mm; }
      .indice-impreso p.subtitulo { margin: 0 0 10mm; font-style: italic; }
      .indice-impreso ol { list-style: none; padding: 0; margin: 0; }
      .indice-impreso li { display: flex; align-items: baseline; gap: 2mm; margin: 1.6mm 0; }
      .indice-impreso li a { color: inherit; }
      .indice-impreso .relleno { flex: 1; border-bottom: 1px dotted #888; }
      .indice-impreso .num { display: inline-block; min-width: 3em; text-align: right; font-variant-numeric: tabular-nums; }
    `;
    const h = document.createElement("h1");
    h.textContent = document.querySelector(".menu-title")?.textContent.trim() || document.title;
    const sub = document.createElement("p");
    sub.className = "subtitulo";
    sub.textContent = "Índice";
    const ol = document.createElement("ol");
    for (const c of caps) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#" + c.id;
      a.textContent = c.textContent.trim();
      const relleno = document.createElement("span");
      relleno.className = "relleno";
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = "\u2007\u2007\u2007";
      li.append(a, relleno, num);
      ol.append(li);
    }
    nav.append(estilo, h, sub, ol);
    main.prepend(nav);
    return caps.map((c) => c.textContent.trim());
  });

  const tmp = mkdtempSync(join(tmpdir(), "curso-pdf-"));
  try {
    const borrador = join(tmp, "borrador.pdf");
    await pagina.pdf({ ...OPCIONES_DE_PDF, path: borrador });
    // El índice empieza por el título del libro: ninguna de sus páginas
    // empieza por el primer capítulo, y los demás se buscan detrás de él.
    const numeros = paginasDeCapitulos(textoDePaginas(borrador), titulos, 0);
    if (!numeros) throw new Error("no encuentro en el PDF la página de algún capítulo (¿cambió print.html?)");
    await pagina.evaluate((ns) => {
      document.querySelectorAll(".indice-impreso .num").forEach((n, i) => { n.textContent = String(ns[i]); });
    }, numeros);
    await pagina.pdf({ ...OPCIONES_DE_PDF, path: salida });
    // Los números no han movido nada: cada capítulo sigue en su página.
    const finales = textoDePaginas(salida);
    const otraVez = paginasDeCapitulos(finales, titulos, 0);
    if (!otraVez || otraVez.join() !== numeros.join()) {
      throw new Error(`el índice del PDF no cuadra: ${numeros} / ${otraVez}`);
    }
    await contexto.close();
    return {
      paginas: finales.length,
      capitulos: titulos.map((titulo, i) => ({ titulo, pagina: numeros[i] })),
      diagrama: etiquetas,
      texto: finales,
      bytes: statSync(salida).size,
      segundos: (Date.now() - inicio) / 1000,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Como orden: node pdf.mjs CARPETA_DEL_LIBRO [SALIDA.pdf]
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [carpeta, salida] = process.argv.slice(2);
  if (!carpeta) {
    console.error("uso: node pdf.mjs CARPETA_DEL_LIBRO [SALIDA.pdf]");
    process.exit(2);
  }
  if (!existsSync(join(carpeta, "print.html"))) {
    console.error(`error: no hay ${join(carpeta, "print.html")}; construye antes el libro (cargo libro --solo-construir)`);
    process.exit(2);
  }
  const destino = salida ?? join(carpeta, NOMBRE_DEL_PDF);
  try {
    const navegador = await chromium.launch({ executablePath: buscarChromium(), args: ARGUMENTOS_DE_CHROMIUM });
    const r = await hacerPdf(navegador, carpeta, destino);
    await navegador.close();
    const mb = (r.bytes / 1e6).toFixed(1).replace(".", ",");
    const s = r.segundos.toFixed(0);
    console.log(`PDF del libro: ${destino} (${r.paginas} páginas, ${mb} MB, ${r.capitulos.length} capítulos en el índice; ${s} s)`);
  } catch (e) {
    console.error(`error: ${e.message}`);
    process.exit(1);
  }
}
