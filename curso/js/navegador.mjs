// Abre cada página del libro construido en Chromium sin interfaz y falla si
// algo se rompe para quien lee. La lanza `cargo curso navegador`, que
// construye el libro como el flujo de Pages y lo sirve en loopback.
//
// Uso: node navegador.mjs URL_BASE CARPETA_DEL_LIBRO CARPETA_DE_CAPTURAS
import { chromium } from "playwright-core";
import { readdirSync, readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const [base, carpeta, capturas] = process.argv.slice(2);
if (!base || !carpeta || !capturas) {
  console.error("uso: node navegador.mjs URL_BASE CARPETA_DEL_LIBRO CARPETA_DE_CAPTURAS");
  process.exit(2);
}
const origen = new URL(base).origin;
mkdirSync(capturas, { recursive: true });

// Las búsquedas que haría alguien que lee: cada una debe encontrar al menos
// una página. La búsqueda de mdbook distingue tildes (la guía lo explica).
const BUSQUEDAS = ["robo de trabajo", "tarea", "JoinHandle", "planificador", "máquina de estados"];

const problemas = [];
const problema = (pagina, texto) => problemas.push(`${pagina}: ${texto}`);

const navegador = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
  ],
});

/** Abre una página y devuelve la página de Playwright ya dibujada. */
async function abrir(contexto, ruta, { estado = 200, espera = 60000 } = {}) {
  const pagina = await contexto.newPage();
  pagina.setDefaultTimeout(espera);
  pagina.setDefaultNavigationTimeout(espera);
  const direccion = new URL(ruta, base).href;
  pagina.on("console", (m) => {
    // La página 404 registra su propio estado 404: eso es lo esperado.
    if (estado === 404 && m.location().url === direccion) return;
    // Chromium pide /favicon.ico por su cuenta en páginas sin icono (toc.html).
    if (m.location().url.endsWith("/favicon.ico")) return;
    if (m.type() === "error") problema(ruta, `error en la consola: ${m.text()} (${m.location().url})`);
  });
  pagina.on("pageerror", (e) => problema(ruta, `excepción: ${e.message}`));
  pagina.on("request", (p) => {
    const url = p.url();
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origen) {
      problema(ruta, `pide algo a otro sitio: ${url}`);
    }
  });
  pagina.on("requestfailed", (p) => {
    // Cerrar la página cancela lo que quede pendiente (el favicon, por ejemplo).
    if (p.failure()?.errorText !== "net::ERR_ABORTED") problema(ruta, `no se pudo cargar ${p.url()}`);
  });
  let respuesta;
  try {
    respuesta = await pagina.goto(direccion, { waitUntil: "load" });
  } catch (e) {
    problema(ruta, `la página no terminó de cargar: ${e.message.split("\n")[0]}`);
    return { pagina, diagramas: 0 };
  }
  if (respuesta.status() !== estado) problema(ruta, `estado HTTP ${respuesta.status()}, esperaba ${estado}`);
  // Cada diagrama Mermaid debe acabar como un SVG sin «Syntax error».
  const diagramas = await pagina.locator("pre.mermaid").count();
  if (diagramas > 0) {
    try {
      await pagina.waitForFunction(
        () => [...document.querySelectorAll("pre.mermaid")].every((d) => d.querySelector("svg")),
        null,
        { timeout: 15000 },
      );
    } catch {
      problema(ruta, "algún diagrama Mermaid no se convirtió en SVG");
    }
    const texto = await pagina.locator("pre.mermaid").allInnerTexts();
    if (texto.some((t) => /Syntax error/i.test(t))) problema(ruta, "un diagrama Mermaid dice «Syntax error»");
  }
  return { pagina, diagramas };
}

const paginas = readdirSync(carpeta).filter((f) => f.endsWith(".html") && f !== "404.html").sort();
const contexto = await navegador.newContext({ viewport: { width: 1200, height: 900 } });
// Holgura para máquinas lentas o cargadas: son límites de vida, no de velocidad.
contexto.setDefaultTimeout(60000);
contexto.setDefaultNavigationTimeout(60000);

/**
 * Revisa una página. Chromium sin interfaz se atasca de vez en cuando al
 * dibujar (sin que la página tenga nada mal): si una espera se agota, se
 * repite, hasta tres intentos, con una pestaña nueva. Una página rota falla todas.
 */
const ULTIMO = 3;
async function revisar(ruta) {
  for (let intento = 1; ; intento++) {
    const antes = problemas.length;
    // El primer intento espera menos: un atasco se reintenta enseguida.
    const { pagina, diagramas } = await abrir(contexto, ruta, { espera: intento < ULTIMO ? 20000 : 60000 });
    try {
      if (/^\d\d-/.test(ruta) || ruta === "index.html") {
        await pagina.screenshot({ path: join(capturas, ruta.replace(".html", ".png")) });
      }
      const atasco = problemas.slice(antes).some((p) => p.includes("no terminó de cargar"));
      if (!atasco || intento === ULTIMO) return diagramas;
    } catch (e) {
      if (intento === ULTIMO) {
        problema(ruta, `no se pudo capturar: ${e.message.split("\n")[0]}`);
        return diagramas;
      }
    } finally {
      await pagina.close();
    }
    problemas.length = antes;
    console.log(`(${ruta}: Chromium se atascó; lo intento otra vez)`);
  }
}

// Calentamiento: la primera página que dibuja un Chromium recién arrancado es
// la que más se atasca; que sea una sin importancia.
{
  const calentamiento = await contexto.newPage();
  await calentamiento.goto("about:blank");
  await calentamiento.setContent("<p>hola</p>");
  await calentamiento.screenshot({ path: join(capturas, ".calentamiento.png") }).catch(() => {});
  await calentamiento.close();
}

let totalDiagramas = 0;
for (const ruta of paginas) {
  totalDiagramas += await revisar(ruta);
}
console.log(`${paginas.length} páginas abiertas, ${totalDiagramas} diagramas dibujados`);

// La búsqueda encuentra capítulos para consultas en español
// (index.html?search=... abre la búsqueda con esa consulta).
for (const consulta of BUSQUEDAS) {
  const { pagina } = await abrir(contexto, `index.html?search=${encodeURIComponent(consulta)}`);
  try {
    await pagina.waitForFunction(
      () => document.querySelectorAll("#mdbook-searchresults li").length > 0,
      null,
      { timeout: 5000 },
    );
  } catch {
    problema("búsqueda", `«${consulta}» no encuentra nada`);
  }
  await pagina.close();
}

// El tema oscuro dibuja los diagramas (con el tema oscuro de Mermaid).
{
  const oscuro = await navegador.newContext();
  oscuro.setDefaultTimeout(60000);
  await oscuro.addInitScript(() => localStorage.setItem("mdbook-theme", "navy"));
  const conDiagramas = paginas.find((p) => readFileSync(join(carpeta, p), "utf8").includes('class="mermaid"'));
  if (conDiagramas) {
    const { pagina } = await abrir(oscuro, conDiagramas);
    const clase = await pagina.evaluate(() => document.documentElement.className);
    if (!clase.includes("navy")) problema(conDiagramas, `el tema oscuro no se aplicó (${clase})`);
    await pagina.screenshot({ path: join(capturas, "tema-oscuro.png") });
    await pagina.close();
  }
  await oscuro.close();
}

// print.html ya se abrió arriba con el resto; la página 404, con la ruta base del sitio.
{
  const { pagina } = await abrir(contexto, "esta-pagina-no-existe.html", { estado: 404 });
  const enlaces = await pagina.locator("a[href]").evaluateAll((as) => as.map((a) => a.href));
  for (const href of enlaces.filter((h) => h.startsWith(origen))) {
    const r = await contexto.request.get(href);
    if (r.status() !== 200) problema("404.html", `el enlace ${href} da ${r.status()}`);
  }
  await pagina.screenshot({ path: join(capturas, "404.png") });
  await pagina.close();
}

await navegador.close();
if (problemas.length > 0) {
  console.error(`\n${problemas.length} problemas en el libro publicado:`);
  for (const p of problemas) console.error(`- ${p}`);
  process.exit(1);
}
console.log("El libro se ve bien en Chromium.");
