// Abre cada página del libro construido en Chromium sin interfaz y falla si
// algo se rompe para quien lee. La lanza `cargo curso mantenimiento navegador`, que
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

// Veinte búsquedas que haría alguien que lee, con la página que debe salir
// primera (`puesto: 1`) o entre las tres primeras (`puesto: 3`). Cada una se
// prueba tal cual y sin tildes (curso/tema/buscador.js).
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

// El texto de un diagrama, ya escalado, no baja de esto a 1280 px de ancho.
const PX_MINIMOS = 11;

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

/** Los textos de la interfaz en inglés que se ven en `pagina` (fuera del texto del capítulo). */
async function revisarInterfaz(pagina, ruta, { tambienElTexto = false } = {}) {
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
    if (todo.includes(frase)) problema(ruta, `la interfaz dice «${frase}» en inglés`);
  }
  for (const t of temas) {
    if (TEMAS_EN_INGLES.includes(t)) problema(ruta, `el tema «${t}» tiene el nombre en inglés`);
  }
}

/**
 * El tamaño en pantalla del texto de cada diagrama: el tamaño de letra por
 * la escala con la que el SVG se dibuja (viewBox y transformaciones). Devuelve
 * [{ minimo, texto, desborda }] por diagrama.
 */
async function medirDiagramas(pagina) {
  return pagina.evaluate(() =>
    [...document.querySelectorAll("pre.mermaid")].map((pre) => {
      const svg = pre.querySelector("svg");
      if (!svg) return { minimo: 0, texto: "(sin dibujar)", desborda: false };
      let minimo = Infinity;
      let texto = "";
      for (const el of svg.querySelectorAll("text, tspan, foreignObject *")) {
        const propio = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
        if (!propio || el.getBoundingClientRect().width === 0) continue;
        const m = (el.closest("foreignObject") || el).getScreenCTM();
        if (!m) continue;
        const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b);
        if (px < minimo) {
          minimo = px;
          texto = propio.slice(0, 40);
        }
      }
      return { minimo: Math.round(minimo * 10) / 10, texto, desborda: pre.scrollWidth > pre.clientWidth + 1 };
    }),
  );
}
const medidas = [];

/**
 * Las gráficas SVG de la página (`<img src=".../graficas/x.svg">`): el texto
 * más pequeño una vez escalada la imagen a su ancho en pantalla, y los
 * números con punto decimal (en español, coma).
 */
async function medirGraficas(pagina) {
  return pagina.evaluate(async () => {
    const salida = [];
    for (const img of document.querySelectorAll("main img")) {
      if (!/graficas\/[^/]+\.svg$/.test(new URL(img.src).pathname)) continue;
      // Las copias ocultas (la ampliación al hacer clic) no se ven: no se miden.
      if (img.getBoundingClientRect().width === 0) continue;
      const texto = await (await fetch(img.src)).text();
      const svg = new DOMParser().parseFromString(texto, "image/svg+xml").documentElement;
      const ancho = parseFloat(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
      const escala = img.getBoundingClientRect().width / ancho;
      let minimo = Infinity;
      let cual = "";
      const conPunto = [];
      for (const t of svg.querySelectorAll("text")) {
        const px = parseFloat(t.getAttribute("font-size")) * escala;
        const contenido = t.textContent.trim();
        if (px < minimo) {
          minimo = px;
          cual = contenido;
        }
        if (/\d\.\d/.test(contenido)) conPunto.push(contenido);
      }
      salida.push({ grafica: new URL(img.src).pathname.split("/").pop(), minimo: Math.round(minimo * 10) / 10, cual, conPunto });
    }
    return salida;
  });
}
const graficas = [];

const paginas = readdirSync(carpeta).filter((f) => f.endsWith(".html") && f !== "404.html").sort();
const contexto = await navegador.newContext({ viewport: { width: 1280, height: 900 } });
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
      await revisarInterfaz(pagina, ruta);
      if (/^\d\d-/.test(ruta)) {
        for (const g of await medirGraficas(pagina)) {
          graficas.push({ ruta, ...g });
          if (g.minimo < PX_MINIMOS) {
            problema(ruta, `la gráfica ${g.grafica} tiene texto de ${g.minimo} px a 1280 px de ancho («${g.cual}»)`);
          }
          if (g.conPunto.length > 0) {
            problema(ruta, `la gráfica ${g.grafica} usa punto decimal: ${g.conPunto.slice(0, 3).join(", ")}`);
          }
        }
      }
      if (diagramas > 0) {
        const m = await medirDiagramas(pagina);
        m.forEach((d, i) => {
          medidas.push({ ruta, i: i + 1, ancho: 1280, ...d });
          if (d.minimo < PX_MINIMOS) {
            problema(ruta, `el diagrama ${i + 1} tiene texto de ${d.minimo} px a 1280 px de ancho («${d.texto}»)`);
          }
          if (d.desborda) problema(ruta, `el diagrama ${i + 1} no cabe en la columna a 1280 px de ancho`);
        });
      }
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

// En un teléfono (390 px), los diagramas se miden y se informan: ahí se
// permite desplazarlos en horizontal.
{
  const movil = await navegador.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  movil.setDefaultTimeout(60000);
  for (const ruta of [...new Set(medidas.map((m) => m.ruta))]) {
    const { pagina } = await abrir(movil, ruta);
    (await medirDiagramas(pagina)).forEach((d, i) => medidas.push({ ruta, i: i + 1, ancho: 390, ...d }));
    await pagina.close();
  }
  await movil.close();
}
console.log("\nTexto más pequeño de cada diagrama (px en pantalla):");
console.log("| página | diagrama | a 1280 px | a 390 px (con desplazamiento) |\n|---|---|---|---|");
for (const m of medidas.filter((m) => m.ancho === 1280)) {
  const movil = medidas.find((o) => o.ancho === 390 && o.ruta === m.ruta && o.i === m.i);
  const enMovil = movil ? `${movil.minimo}${movil.desborda ? " (se desplaza)" : ""}` : "?";
  console.log(`| ${m.ruta} | ${m.i} | ${m.minimo} | ${enMovil} |`);
}

console.log("\n| gráfica | página | texto más pequeño a 1280 px |\n|---|---|---|");
for (const g of graficas) console.log(`| ${g.grafica} | ${g.ruta} | ${g.minimo} px («${g.cual}») |`);

// La búsqueda (index.html?search=... abre la búsqueda con esa consulta).
/** Busca y devuelve { cabecera, paginas (de cada resultado, en orden), resaltadas, enlaces }. */
async function buscar(consulta) {
  const { pagina } = await abrir(contexto, `index.html?search=${encodeURIComponent(consulta)}`);
  try {
    await pagina.waitForFunction(
      () => document.querySelector("#mdbook-searchresults-header")?.innerText.trim() !== "",
      null,
      { timeout: 15000 },
    );
  } catch {
    problema("búsqueda", `«${consulta}» no muestra resultados (ni «ningún resultado»)`);
    await pagina.close();
    return { cabecera: "", paginas: [], resaltadas: [], enlaces: [] };
  }
  await revisarInterfaz(pagina, `búsqueda «${consulta}»`);
  const r = await pagina.evaluate(() => ({
    cabecera: document.querySelector("#mdbook-searchresults-header").innerText,
    enlaces: [...document.querySelectorAll("#mdbook-searchresults li > a")].map((a) => a.href),
    resaltadas: [...document.querySelectorAll("#mdbook-searchresults li em")].map((e) => e.innerText),
  }));
  await pagina.close();
  r.paginas = r.enlaces.map((h) => new URL(h).pathname.split("/").pop());
  return r;
}

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

// Singular y plural, con y sin tilde, dan lo mismo; una palabra vacía sola no encuentra nada.
for (const [a, b] of [["tareas", "tarea"], ["planificacion", "planificación"], ["Hilos", "hilo"]]) {
  const [ra, rb] = [await buscar(a), await buscar(b)];
  if (ra.paginas.length === 0) problema("búsqueda", `«${a}» no encuentra nada`);
  if (ra.paginas.join() !== rb.paginas.join()) {
    problema("búsqueda", `«${a}» y «${b}» dan resultados distintos: ${ra.paginas.slice(0, 3)} / ${rb.paginas.slice(0, 3)}`);
  }
}
{
  const r = await buscar("de");
  if (r.paginas.length > 0) problema("búsqueda", `«de» (una palabra vacía) encuentra ${r.paginas.length} resultados`);
}

// Al abrir un resultado, la página resalta lo buscado, sin las palabras vacías.
{
  const r = await buscar("robo de trabajo");
  if (r.enlaces.length > 0) {
    const ruta = new URL(r.enlaces[0]).pathname.split("/").pop() + new URL(r.enlaces[0]).search;
    const { pagina } = await abrir(contexto, ruta + new URL(r.enlaces[0]).hash);
    const marcas = await pagina.locator("main mark").allInnerTexts();
    if (marcas.length === 0) problema(ruta, "la página del resultado no resalta lo buscado");
    for (const m of marcas) {
      if (VACIAS.includes(sinTildes(m).toLowerCase())) problema(ruta, `resalta la palabra vacía «${m}»`);
    }
    await pagina.close();
  }
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
  await revisarInterfaz(pagina, "404.html", { tambienElTexto: true });
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
