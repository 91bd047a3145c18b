// Abre cada página del libro construido en Chromium sin interfaz y falla si
// algo se rompe para quien lee. La lanza `cargo curso mantenimiento navegador`, que
// construye el libro como el flujo de Pages y lo sirve en loopback.
//
// Cada página, a 1280 px (escritorio) y a 390 px (teléfono):
// - carga sin errores en la consola y sin pedir nada a otro sitio, y no
//   carga lo que no usa (Mermaid sin diagramas, la búsqueda sin buscar);
// - la interfaz de mdBook está en español;
// - ningún texto de un diagrama o una gráfica baja de 11 px; si la figura no
//   cabe, se desplaza, enseña «desliza →» y se alcanza con el teclado; cada
//   una tiene texto alternativo (figuras.mjs);
// - los controles de los reproductores miden 44 × 44 px o más, con letra de
//   12 px o más, y se alcanzan con el teclado (figuras.mjs);
// - axe-core no encuentra nada grave ni crítico (axe.mjs).
// Cada capítulo, a 390 px y con la CPU 4 veces más lenta: los bytes que baja
// y el tiempo hasta que sus diagramas están dibujados (medidas.mjs).
// Además: la búsqueda (también desde los archivos, file://), los otros
// temas de mdBook (uno a uno, con axe, en una página de capítulo), la página
// 404 y el PDF del libro (pdf.mjs), que se abre con pdftoppm.
//
// Uso: node navegador.mjs URL_BASE CARPETA_DEL_LIBRO CARPETA_DE_CAPTURAS
import { chromium } from "playwright-core";
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { pasarAxe, VERSION_DE_AXE } from "./axe.mjs";
import { medirFiguras, medirReproductores, PX_MINIMOS, DIANA_MINIMA, LETRA_MINIMA } from "./figuras.mjs";
import { medirCarga, vigilarDiagramas, FRENO_DE_CPU, miles } from "./medidas.mjs";
import { revisarPdf } from "./revisar-pdf.mjs";
import { ARGUMENTOS_DE_CHROMIUM } from "./pdf.mjs";
import { comprobarRaices } from "./raices.mjs";
import { probarCuestionarios } from "./cuestionarios.mjs";

const [base, carpeta, capturas] = process.argv.slice(2);
if (!base || !carpeta || !capturas) {
  console.error("uso: node navegador.mjs URL_BASE CARPETA_DEL_LIBRO CARPETA_DE_CAPTURAS");
  process.exit(2);
}
const origen = new URL(base).origin;
mkdirSync(capturas, { recursive: true });
const inicio = Date.now();
const segundos = () => ((Date.now() - inicio) / 1000).toFixed(0);

// Búsquedas que haría alguien que lee, con la página que debe salir primera
// (`puesto: 1`) o entre las tres primeras (`puesto: 3`). Cada una se prueba
// tal cual y sin tildes (curso/tema/buscador.js). Las veinte primeras son
// las de siempre; las demás, las de la raíz española (Snowball).
const BUSQUEDAS = [
  { consulta: "robo de trabajo", pagina: "08-robo-de-trabajo.html", puesto: 1 },
  { consulta: "máquina de estados", pagina: "04-maquina-de-estados.html", puesto: 1 },
  { consulta: "hilos verdes", pagina: "06-hilos-verdes.html", puesto: 1 },
  { consulta: "JoinHandle", pagina: "07-joinhandle.html", puesto: 1 },
  { consulta: "cancelar una tarea", pagina: "07-joinhandle.html", puesto: 3 },
  { consulta: "abort", pagina: "07-joinhandle.html", puesto: 1 },
  { consulta: "Pin", pagina: "04-maquina-de-estados.html", puesto: 3 },
  { consulta: "block_on", pagina: "04-maquina-de-estados.html", puesto: 1 },
  { consulta: "C10k", pagina: "02-hilo-por-conexion.html", puesto: 1 },
  { consulta: "cuánto cuesta un hilo", pagina: "02-hilo-por-conexion.html", puesto: 1 },
  { consulta: "reactor", pagina: "03-muchas-tareas.html", puesto: 1 },
  { consulta: "spawn_blocking", pagina: "05-cuando-async.html", puesto: 1 },
  { consulta: "tareas que no ceden", pagina: "05-cuando-async.html", puesto: 3 },
  { consulta: "por qué spawn exige Send", pagina: "06-hilos-verdes.html", puesto: 1 },
  { consulta: "colas locales", pagina: "08-robo-de-trabajo.html", puesto: 3 },
  { consulta: "construye tu planificador", pagina: "09-tu-planificador.html", puesto: 1 },
  { consulta: "colas sin límite", pagina: "11-recursos-sin-limite.html", puesto: 3 },
  { consulta: "nada compartido", pagina: "12-nada-compartido.html", puesto: 1 },
  { consulta: "simulación determinista", pagina: "13-determinismo.html", puesto: 1 },
  { consulta: "cuál elegir", pagina: "14-cual-elegir.html", puesto: 1 },
  { consulta: "planificación", pagina: "08-robo-de-trabajo.html", puesto: 3 },
  { consulta: "planificación", pagina: "09-tu-planificador.html", puesto: 3 },
  { consulta: "planificar", pagina: "09-tu-planificador.html", puesto: 3 },
  { consulta: "planificador", pagina: "08-robo-de-trabajo.html", puesto: 3 },
  { consulta: "tareas", pagina: "06-hilos-verdes.html", puesto: 3 },
];
const sinTildes = (t) => t.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

// Textos de la interfaz de mdbook en inglés que no deben verse en ninguna
// página (ni en sus atributos title, aria-label o placeholder).
const EN_INGLES = [
  "Search this book", "search result", "No search results", "Print this book", "Copy to clipboard",
  "Copied!", "Clipboard error", "Toggle Table of Contents", "Table of contents", "Change theme", "Themes",
  "Previous chapter", "Next chapter", "Keyboard shortcuts", "navigate between chapters", "search in the book",
  "show this help", "hide this help", "Git repository", "Suggest an edit", "Page not found", "Document not found",
  "This URL is invalid", "Show hidden lines", "Hide lines", "Undo changes", "Run this code", "Running...",
  "No output", "Page navigation", "Search Result Teaser", "Toggle Searchbar", "Redirecting",
];
// Los nombres de los temas de mdbook, en inglés.
const TEMAS_EN_INGLES = ["Auto", "Light", "Rust", "Coal", "Navy", "Ayu"];
const ANCHOS = [1280, 390];
// Dos páginas a la vez: la máquina de la integración continua tiene 2 núcleos.
const A_LA_VEZ = Number(process.env.NAVEGADOR_A_LA_VEZ ?? 2);

const problemas = [];
const problema = (pagina, texto) => problemas.push(`${pagina}: ${texto}`);

const navegador = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ARGUMENTOS_DE_CHROMIUM,
});

/** Un contexto de navegador a `ancho` px (a 390, como un teléfono táctil). */
async function nuevoContexto(ancho, opciones = {}) {
  const movil = ancho < 600;
  const c = await navegador.newContext({
    viewport: { width: ancho, height: movil ? 844 : 900 }, isMobile: movil, hasTouch: movil, ...opciones,
  });
  // Holgura para máquinas lentas o cargadas: son límites de vida, no de velocidad.
  c.setDefaultTimeout(60000);
  c.setDefaultNavigationTimeout(60000);
  await c.addInitScript(vigilarDiagramas);
  return c;
}

/**
 * Abre una página y devuelve { pagina, diagramas, pedidas } ya dibujada.
 * `antes(pagina)` se llama antes de navegar (para medir); los problemas van
 * a `avisar(donde, texto)`.
 */
async function abrir(contexto, ruta, { estado = 200, espera = 60000, antes = null, avisar = problema } = {}) {
  const pagina = await contexto.newPage();
  pagina.setDefaultTimeout(espera);
  pagina.setDefaultNavigationTimeout(espera);
  const direccion = new URL(ruta, base).href;
  const pedidas = [];
  pagina.on("console", (m) => {
    // La página 404 registra su propio estado 404: eso es lo esperado.
    if (estado === 404 && m.location().url === direccion) return;
    // Chromium pide /favicon.ico por su cuenta en páginas sin icono (toc.html).
    if (m.location().url.endsWith("/favicon.ico")) return;
    if (m.type() === "error") avisar(ruta, `error en la consola: ${m.text()} (${m.location().url})`);
  });
  pagina.on("pageerror", (e) => avisar(ruta, `excepción: ${e.message}`));
  pagina.on("request", (p) => {
    const url = p.url();
    pedidas.push(url);
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origen) {
      avisar(ruta, `pide algo a otro sitio: ${url}`);
    }
  });
  pagina.on("requestfailed", (p) => {
    // Cerrar la página cancela lo que quede pendiente (el favicon, por ejemplo).
    if (p.failure()?.errorText !== "net::ERR_ABORTED") avisar(ruta, `no se pudo cargar ${p.url()}`);
  });
  const terminar = antes ? await antes(pagina) : null;
  let respuesta;
  try {
    respuesta = await pagina.goto(direccion, { waitUntil: "load" });
  } catch (e) {
    avisar(ruta, `la página no terminó de cargar: ${e.message.split("\n")[0]}`);
    return { pagina, diagramas: 0, pedidas, medida: null };
  }
  if (respuesta.status() !== estado) avisar(ruta, `estado HTTP ${respuesta.status()}, esperaba ${estado}`);
  // Cada diagrama Mermaid debe acabar como un SVG sin «Syntax error».
  const diagramas = await pagina.locator("pre.mermaid").count();
  if (diagramas > 0) {
    try {
      await pagina.waitForFunction(
        () => [...document.querySelectorAll("pre.mermaid")].every((d) => d.querySelector("svg[data-ancho-minimo]")),
        null,
        { timeout: 30000 },
      );
    } catch {
      avisar(ruta, "algún diagrama Mermaid no se convirtió en SVG");
    }
    const texto = await pagina.locator("pre.mermaid").allInnerTexts();
    if (texto.some((t) => /Syntax error/i.test(t))) avisar(ruta, "un diagrama Mermaid dice «Syntax error»");
  }
  // Los reproductores, montados.
  await pagina.waitForFunction(
    () => [...document.querySelectorAll(".reproductor[data-traza]")].every((r) => r.dataset.listo || r.dataset.error),
  ).catch(() => avisar(ruta, "algún reproductor no terminó de cargar"));
  const medida = terminar ? await terminar() : null;
  return { pagina, diagramas, pedidas, medida };
}

/** Los textos de la interfaz en inglés que se ven en `pagina` (fuera del texto del capítulo). */
async function revisarInterfaz(pagina, ruta, { tambienElTexto = false, avisar = problema } = {}) {
  const { textos, temas } = await pagina.evaluate((tambien) => {
    const textos = [document.title];
    const main = document.querySelector("main");
    for (const el of document.querySelectorAll("body *")) {
      for (const a of ["title", "aria-label", "placeholder"]) {
        if (el.hasAttribute(a)) textos.push(el.getAttribute(a));
      }
      if (!tambien && main && main.contains(el)) continue;
      if (["SCRIPT", "STYLE", "TEMPLATE"].includes(el.tagName)) continue;
      for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) textos.push(n.textContent);
    }
    const temas = [...document.querySelectorAll("#mdbook-theme-list button")].map((b) => b.textContent.trim());
    return { textos, temas };
  }, tambienElTexto);
  const todo = textos.join("\n");
  for (const frase of EN_INGLES) {
    if (todo.includes(frase)) avisar(ruta, `la interfaz dice «${frase}» en inglés`);
  }
  for (const t of temas) {
    if (TEMAS_EN_INGLES.includes(t)) avisar(ruta, `el tema «${t}» tiene el nombre en inglés`);
  }
}

const figuras = [];
const axe = [];
const pesos = [];

/**
 * Las comprobaciones de una página ya abierta, a `ancho` px: los problemas
 * van a `avisar`, y las figuras y lo que dice axe, a `salida`.
 */
async function comprobar(pagina, ruta, ancho, pedidas, avisar, salida) {
  const donde = `${ruta} a ${ancho} px`;
  const problema = avisar;
  if (ancho === 1280) await revisarInterfaz(pagina, ruta, { avisar });
  // Nada que la página no use.
  const tieneDiagramas = (await pagina.locator("pre.mermaid").count()) > 0;
  for (const url of pedidas) {
    if (!tieneDiagramas && /\/mermaid[^/]*\.js$/.test(url)) problema(donde, `carga Mermaid sin tener diagramas (${url})`);
    if (/searchindex|raices-es/.test(url)) problema(donde, `carga la búsqueda sin que nadie busque (${url})`);
  }
  for (const f of await medirFiguras(pagina)) {
    salida.figuras.push({ ruta, ancho, ...f });
    const nombre = f.tipo === "diagrama" ? `el diagrama ${f.cual}` : `la gráfica ${f.cual}`;
    if (f.minimo < PX_MINIMOS) problema(donde, `${nombre} tiene texto de ${f.minimo} px («${f.texto}»)`);
    if (f.desborda && !f.aviso) problema(donde, `${nombre} no cabe y no enseña «desliza →»`);
    if (f.desborda && !f.foco) problema(donde, `${nombre} se desplaza pero no se alcanza con el teclado`);
    if (f.alternativo.trim().split(/\s+/).length < 6) {
      problema(donde, `${nombre} no tiene un texto alternativo que diga qué enseña («${f.alternativo}»)`);
    }
    if (f.conPunto?.length > 0) problema(donde, `${nombre} usa punto decimal: ${f.conPunto.slice(0, 3).join(", ")}`);
  }
  for (const c of await medirReproductores(pagina)) {
    if (c.ancho < DIANA_MINIMA || c.alto < DIANA_MINIMA) {
      problema(donde, `#${c.reproductor}: «${c.control}» mide ${c.ancho} × ${c.alto} px (menos de ${DIANA_MINIMA})`);
    }
    if (c.letra < LETRA_MINIMA) problema(donde, `#${c.reproductor}: «${c.control}» tiene letra de ${c.letra} px`);
    if (!c.foco) problema(donde, `#${c.reproductor}: «${c.control}» no se alcanza con el teclado`);
  }
  const { graves, leves } = await pasarAxe(pagina);
  salida.axe.push({ ruta, ancho, graves, leves });
  for (const v of graves) {
    problema(donde, `axe (${v.gravedad}): ${v.regla}, ${v.ayuda}: ${v.nodos.slice(0, 3).join(" | ")}${v.nodos.length > 3 ? ` y ${v.nodos.length - 3} más` : ""}`);
  }
  if (/^\d\d-/.test(ruta) || ruta === "index.html") {
    const sufijo = ancho === 1280 ? "" : `-${ancho}`;
    await pagina.screenshot({ path: join(capturas, ruta.replace(".html", `${sufijo}.png`)) });
  }
}

/**
 * Revisa una página a un ancho. Chromium sin interfaz se atasca de vez en
 * cuando al dibujar (sin que la página tenga nada mal): si una espera se
 * agota, se repite, hasta tres intentos, con una pestaña nueva. Una página
 * rota falla todas. Con `medir`, la carga se mide con la CPU frenada.
 */
const ULTIMO = 3;
async function revisar(contexto, ruta, ancho, medir) {
  for (let intento = 1; ; intento++) {
    // Lo de este intento se guarda aparte: si Chromium se atasca, se tira.
    const mios = [];
    const avisar = (donde, texto) => mios.push(`${donde}: ${texto}`);
    const salida = { figuras: [], axe: [] };
    const { pagina, diagramas, pedidas, medida } = await abrir(contexto, ruta, {
      // El primer intento espera menos: un atasco se reintenta enseguida.
      espera: intento < ULTIMO ? 45000 : 90000,
      antes: medir ? (p) => medirCarga(p, base, carpeta) : null,
      avisar,
    });
    let listo = false;
    try {
      await comprobar(pagina, ruta, ancho, pedidas, avisar, salida);
      listo = !mios.some((p) => p.includes("no terminó de cargar")) || intento === ULTIMO;
    } catch (e) {
      if (intento === ULTIMO) {
        avisar(ruta, `no se pudo revisar a ${ancho} px: ${e.message.split("\n")[0]}`);
        listo = true;
      }
    } finally {
      await pagina.close();
    }
    if (listo) {
      problemas.push(...mios);
      figuras.push(...salida.figuras);
      axe.push(...salida.axe);
      if (medida) pesos.push({ ruta, ...medida });
      return diagramas;
    }
    console.log(`(${ruta} a ${ancho} px: Chromium se atascó; lo intento otra vez)`);
  }
}

/** Ejecuta `tareas` (funciones asíncronas) de `n` en `n`. */
async function enParalelo(tareas, n) {
  const resultados = [];
  let siguiente = 0;
  await Promise.all(Array.from({ length: Math.min(n, tareas.length) }, async () => {
    while (siguiente < tareas.length) {
      const i = siguiente++;
      resultados[i] = await tareas[i]();
    }
  }));
  return resultados;
}

const paginas = readdirSync(carpeta).filter((f) => f.endsWith(".html") && f !== "404.html").sort();
const capitulos = paginas.filter((p) => /^\d\d-/.test(p));
const contextos = { 1280: await nuevoContexto(1280), 390: await nuevoContexto(390) };

// Calentamiento: la primera página que dibuja un Chromium recién arrancado es
// la que más se atasca; que sea una sin importancia.
{
  const calentamiento = await contextos[1280].newPage();
  await calentamiento.setContent("<p>hola</p>");
  await calentamiento.screenshot({ path: join(capturas, ".calentamiento.png") }).catch(() => {});
  await calentamiento.close();
}

// 1. Cada página a 1280 px y las que no son capítulos a 390, de dos en dos.
//    print.html (todos los capítulos en una página, para imprimir) solo a
//    1280: su contenido se revisa a 390 capítulo a capítulo.
const tareas = [];
for (const ruta of paginas) tareas.push(() => revisar(contextos[1280], ruta, 1280, false));
for (const ruta of paginas.filter((p) => !capitulos.includes(p) && p !== "print.html")) {
  tareas.push(() => revisar(contextos[390], ruta, 390, false));
}
const dibujados = await enParalelo(tareas, A_LA_VEZ);
console.log(`${paginas.length} páginas abiertas a 1280 px, ${dibujados.slice(0, paginas.length).reduce((a, b) => a + b, 0)} diagramas dibujados (${segundos()} s)`);
// 2. Cada capítulo a 390 px: primero se mide su carga con la CPU frenada y
//    después se revisa como las demás. También de dos en dos (cada página
//    con su núcleo en la máquina de la integración continua); para medir
//    sin que se estorben, NAVEGADOR_A_LA_VEZ=1.
await enParalelo(capitulos.map((ruta) => () => revisar(contextos[390], ruta, 390, true)), A_LA_VEZ);
console.log(`${paginas.length - 1} páginas revisadas a 390 px; ${capitulos.length} capítulos medidos (${segundos()} s)`);

console.log("\nTexto más pequeño de cada figura (px en pantalla; «→» si se desplaza, con «desliza →»):");
console.log("| página | figura | a 1280 px | a 390 px | texto alternativo |\n|---|---|---|---|---|");
for (const f of figuras.filter((f) => f.ancho === 1280)) {
  const movil = figuras.find((o) => o.ancho === 390 && o.ruta === f.ruta && o.tipo === f.tipo && o.cual === f.cual);
  const enMovil = movil ? `${movil.minimo}${movil.desborda ? " →" : ""}` : "?";
  const alt = f.alternativo.length > 50 ? `${f.alternativo.slice(0, 50)}…` : f.alternativo;
  console.log(`| ${f.ruta} | ${f.tipo} ${f.cual} | ${f.minimo}${f.desborda ? " →" : ""} | ${enMovil} | ${alt} |`);
}

{
  const cuantas = (ancho) => new Set(axe.filter((a) => a.ancho === ancho).map((a) => a.ruta)).size;
  console.log(`\naxe-core ${VERSION_DE_AXE} (reglas por defecto): ${cuantas(1280)} páginas a 1280 px y ${cuantas(390)} a 390 px`);
}
{
  const porRegla = new Map();
  for (const a of axe) for (const v of a.graves.concat(a.leves)) {
    const r = porRegla.get(v.regla) ?? { gravedad: v.gravedad, veces: 0, nodos: 0 };
    r.veces++;
    r.nodos += v.nodos.length;
    porRegla.set(v.regla, r);
  }
  if (porRegla.size === 0) console.log("ninguna violación.");
  else {
    console.log("(las graves y las críticas hacen fallar la prueba; las demás solo se cuentan)");
    console.log("| regla | gravedad | revisiones | elementos |\n|---|---|---|---|");
    for (const [regla, r] of porRegla) console.log(`| ${regla} | ${r.gravedad} | ${r.veces} | ${r.nodos} |`);
  }
}

console.log(`\nLo que baja cada capítulo a 390 px sin caché, y cuándo están sus diagramas (CPU ${FRENO_DE_CPU} veces más lenta):`);
console.log("| capítulo | peticiones | bytes | con gzip | diagramas dibujados |\n|---|---|---|---|---|");
for (const p of pesos) {
  console.log(`| ${p.ruta} | ${p.peticiones} | ${miles(p.bytes)} | ${miles(p.gzip)} | ${p.diagramas_ms ? `${miles(p.diagramas_ms)} ms` : "(sin diagramas)"} |`);
}
writeFileSync(join(capturas, "medidas.json"), JSON.stringify({ freno_de_cpu: FRENO_DE_CPU, pesos, figuras }, null, 1));

// 3. La búsqueda, en una sola pestaña: la primera consulta por la dirección
//    (index.html?search=...) y las demás escritas en la barra.
const buscador = (await abrir(contextos[1280], `index.html?search=${encodeURIComponent("robo de trabajo")}`)).pagina;
/** Busca y devuelve { cabecera, paginas (de cada resultado, en orden), resaltadas, enlaces }. */
async function buscar(consulta, pagina = buscador) {
  try {
    await pagina.evaluate((q) => {
      const barra = document.getElementById("mdbook-searchbar");
      if (barra.value !== q) {
        barra.value = q;
        barra.dispatchEvent(new KeyboardEvent("keyup"));
      }
    }, consulta);
    await pagina.waitForFunction(
      (q) => document.querySelector("#mdbook-searchresults-header")?.innerText.includes(`«${q}»`),
      consulta,
      { timeout: 30000 },
    );
  } catch {
    problema("búsqueda", `«${consulta}» no muestra resultados (ni «ningún resultado»)`);
    return { cabecera: "", paginas: [], resaltadas: [], enlaces: [] };
  }
  const r = await pagina.evaluate(() => ({
    cabecera: document.querySelector("#mdbook-searchresults-header").innerText,
    enlaces: [...document.querySelectorAll("#mdbook-searchresults li > a")].map((a) => a.href),
    resaltadas: [...document.querySelectorAll("#mdbook-searchresults li em")].map((e) => e.innerText),
  }));
  r.paginas = r.enlaces.map((h) => new URL(h).pathname.split("/").pop());
  return r;
}
await buscar("robo de trabajo");
await revisarInterfaz(buscador, "búsqueda «robo de trabajo»");

const VACIAS = ["de", "del", "la", "el", "los", "las", "que", "y", "en", "un", "una", "por", "con"];
const resultadosDeBusqueda = [];
for (const { consulta, pagina, puesto } of BUSQUEDAS) {
  for (const variante of [...new Set([consulta, sinTildes(consulta)])]) {
    const r = await buscar(variante);
    const lugar = r.paginas.indexOf(pagina) + 1;
    resultadosDeBusqueda.push(`| ${variante} | ${pagina} | ${puesto === 1 ? "1.º" : "entre las 3 primeras"} | ${lugar || "no sale"} |`);
    if (lugar === 0 || lugar > puesto) {
      problema("búsqueda", `«${variante}» debería dar ${pagina} ${puesto === 1 ? "la primera" : `entre las ${puesto} primeras`}; da: ${r.paginas.slice(0, 3).join(", ") || "nada"}`);
    }
    for (const em of r.resaltadas) {
      const palabra = sinTildes(em).toLowerCase().replace(/[^\p{L}\p{N}_]/gu, "");
      if (VACIAS.includes(palabra)) problema("búsqueda", `«${variante}» resalta la palabra vacía «${em}»`);
    }
  }
}
console.log("\n| consulta | página esperada | puesto pedido | puesto |\n|---|---|---|---|");
for (const l of resultadosDeBusqueda) console.log(l);

// Singular y plural, con y sin tilde, dan lo mismo; una palabra vacía sola no
// encuentra nada y lo dice.
for (const [a, b] of [["tareas", "tarea"], ["planificacion", "planificación"], ["Hilos", "hilo"]]) {
  const ra = await buscar(a);
  const rb = await buscar(b);
  if (ra.paginas.length === 0) problema("búsqueda", `«${a}» no encuentra nada`);
  // La misma sección (página y ancla); ?highlight= lleva las palabras tal cual.
  const seccion = (h) => new URL(h).pathname + new URL(h).hash;
  if (ra.enlaces.map(seccion).join() !== rb.enlaces.map(seccion).join()) {
    problema("búsqueda", `«${a}» y «${b}» dan resultados distintos: ${ra.paginas.slice(0, 3)} / ${rb.paginas.slice(0, 3)}`);
  }
}
for (const vacia of ["de", "el"]) {
  const r = await buscar(vacia);
  if (r.paginas.length > 0) problema("búsqueda", `«${vacia}» (una palabra vacía) encuentra ${r.paginas.length} resultados`);
  if (!/no tiene en cuenta/.test(r.cabecera)) problema("búsqueda", `«${vacia}» no dice que la búsqueda no tiene en cuenta esa palabra: «${r.cabecera}»`);
}
{
  // La raíz española es la del paquete, sin tocar (raices.mjs), y junta las
  // palabras de una familia.
  const distinta = comprobarRaices();
  if (distinta) problema("búsqueda", distinta);
  const raiz = await buscador.evaluate(() => ["planificación", "planificador", "planifica"].map((p) => window.search.raiz(p)));
  if (new Set(raiz).size !== 1) problema("búsqueda", `planificación, planificador y planifica no dan la misma raíz: ${raiz}`);
}
await buscador.close();

// Al abrir un resultado, la página resalta lo buscado, sin las palabras vacías.
{
  const { pagina: p } = await abrir(contextos[1280], `index.html?search=${encodeURIComponent("robo de trabajo")}`);
  const r = await buscar("robo de trabajo", p);
  await p.close();
  if (r.enlaces.length > 0) {
    const destino = new URL(r.enlaces[0]);
    const ruta = destino.pathname.split("/").pop() + destino.search + destino.hash;
    const { pagina } = await abrir(contextos[1280], ruta);
    await pagina.waitForSelector("main mark", { timeout: 30000 }).catch(() => {});
    const marcas = await pagina.locator("main mark").allInnerTexts();
    if (marcas.length === 0) problema(ruta, "la página del resultado no resalta lo buscado");
    for (const m of marcas) {
      if (VACIAS.includes(sinTildes(m).toLowerCase())) problema(ruta, `resalta la palabra vacía «${m}»`);
    }
    await pagina.close();
  }
}

// 4. Desde los archivos (file://), sin servidor: la búsqueda encuentra.
{
  const local = await navegador.newContext();
  const pagina = await local.newPage();
  pagina.on("pageerror", (e) => problema("file://", `excepción: ${e.message}`));
  const url = pathToFileURL(resolve(carpeta, "index.html")).href + "?search=planificacion";
  await pagina.goto(url, { waitUntil: "load" });
  const r = await buscar("planificacion", pagina);
  if (!r.paginas.slice(0, 3).includes("09-tu-planificador.html")) {
    problema("file://", `la búsqueda desde los archivos no encuentra «planificacion»: ${r.paginas.slice(0, 3)}`);
  }
  await local.close();
}

// 5. Los otros temas de mdBook. El resto de la prueba usa el claro; aquí,
//    una página de capítulo con diagramas, un reproductor y un cuestionario
//    (PAGINA_DE_LOS_TEMAS), con cada uno de los demás: el tema se aplica, los
//    diagramas se dibujan (con el tema oscuro de Mermaid en los oscuros) y
//    axe no encuentra nada grave ni crítico, el contraste de la letra y de
//    los enlaces sobre todo (curso/tema/curso.css). Para que dure unos
//    segundos, la página se abre dos veces, a la vez: con rust (Mermaid
//    claro) y con coal, y en esta se pasa después a navy y a ayu con el
//    botón de los temas, como quien lee (los tres usan el Mermaid oscuro, así
//    que mdBook no recarga la página).
const PAGINA_DE_LOS_TEMAS = "08-robo-de-trabajo.html";
const GRUPOS_DE_TEMAS = [["rust"], ["coal", "navy", "ayu"]];
const axeConTemas = [];
{
  const desde = Date.now();
  const html = readFileSync(join(carpeta, PAGINA_DE_LOS_TEMAS), "utf8");
  for (const [que, marca] of [["diagramas", 'class="mermaid"'], ["un reproductor", 'class="reproductor"'], ["un cuestionario", 'class="cuestionario"']]) {
    if (!html.includes(marca)) problema(PAGINA_DE_LOS_TEMAS, `la página de la prueba de los temas ya no tiene ${que}: elige otra`);
  }
  await enParalelo(GRUPOS_DE_TEMAS.map((temas) => async () => {
    const contexto = await navegador.newContext({ viewport: { width: 1280, height: 900 } });
    contexto.setDefaultTimeout(60000);
    await contexto.addInitScript(vigilarDiagramas);
    await contexto.addInitScript((t) => localStorage.setItem("mdbook-theme", t), temas[0]);
    const { pagina } = await abrir(contexto, PAGINA_DE_LOS_TEMAS, {
      avisar: (_, texto) => problema(`${PAGINA_DE_LOS_TEMAS} con el tema ${temas[0]}`, texto),
    });
    for (const [i, tema] of temas.entries()) {
      const donde = `${PAGINA_DE_LOS_TEMAS} con el tema ${tema}`;
      try {
        if (i > 0) {
          // Elegir un tema no cierra el menú; Escape, sí.
          if (!(await pagina.locator("#mdbook-theme-list").isVisible())) await pagina.click("#mdbook-theme-toggle");
          await pagina.click(`#mdbook-theme-${tema}`);
          await pagina.keyboard.press("Escape");
        }
        const clase = await pagina.evaluate(() => document.documentElement.className);
        if (!clase.split(/\s+/).includes(tema)) problema(donde, `el tema no se aplicó (${clase})`);
        const { graves, leves } = await pasarAxe(pagina);
        axeConTemas.push({ tema, graves, leves });
        for (const v of graves) {
          problema(donde, `axe (${v.gravedad}): ${v.regla}, ${v.ayuda}: ${v.nodos.slice(0, 3).join(" | ")}${v.nodos.length > 3 ? ` y ${v.nodos.length - 3} más` : ""}`);
        }
        await pagina.screenshot({ path: join(capturas, `tema-${tema}.png`) });
      } catch (e) {
        problema(donde, `no se pudo revisar: ${e.message.split("\n")[0]}`);
      }
    }
    await pagina.close();
    await contexto.close();
  }), A_LA_VEZ);
  const orden = GRUPOS_DE_TEMAS.flat();
  console.log(`\naxe con los otros temas, en ${PAGINA_DE_LOS_TEMAS} (${((Date.now() - desde) / 1000).toFixed(1)} s):`);
  console.log("| tema | graves y críticas | leves |\n|---|---|---|");
  for (const { tema, graves, leves } of axeConTemas.sort((a, b) => orden.indexOf(a.tema) - orden.indexOf(b.tema))) {
    const cuenta = (vs) => vs.map((v) => `${v.regla} (${v.nodos.length})`).join(", ") || "ninguna";
    console.log(`| ${tema} | ${cuenta(graves)} | ${cuenta(leves)} |`);
  }
}

// 6. La página 404, con la ruta base del sitio.
{
  const { pagina } = await abrir(contextos[1280], "esta-pagina-no-existe.html", { estado: 404 });
  await revisarInterfaz(pagina, "404.html", { tambienElTexto: true });
  const enlaces = await pagina.locator("a[href]").evaluateAll((as) => as.map((a) => a.href));
  for (const href of enlaces.filter((h) => h.startsWith(origen))) {
    const r = await contextos[1280].request.get(href);
    if (r.status() !== 200) problema("404.html", `el enlace ${href} da ${r.status()}`);
  }
  const { graves } = await pasarAxe(pagina);
  for (const v of graves) problema("404.html", `axe (${v.gravedad}): ${v.regla}: ${v.nodos.slice(0, 3).join(" | ")}`);
  await pagina.screenshot({ path: join(capturas, "404.png") });
  await pagina.close();
}

// 7. El PDF del libro: se construye, está enlazado y se lee.
problemas.push(...(await revisarPdf({ navegador, base, carpeta, capturas, contexto: contextos[1280] })));

for (const c of Object.values(contextos)) await c.close();
problemas.push(...(await probarCuestionarios({ navegador, base, carpeta, capturas })));

await navegador.close();
console.log(`\n(la prueba del navegador tardó ${segundos()} s)`);
if (problemas.length > 0) {
  console.error(`\n${problemas.length} problemas en el libro publicado:`);
  for (const p of problemas) console.error(`- ${p}`);
  process.exit(1);
}
console.log("El libro se ve bien en Chromium.");
