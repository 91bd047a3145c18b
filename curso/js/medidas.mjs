// Lo que cuesta abrir una página del libro en un teléfono de gama media:
// los bytes que baja (sin caché) y el tiempo hasta que sus diagramas están
// dibujados, con la CPU de Chromium 4 veces más lenta (CDP
// `Emulation.setCPUThrottlingRate`). Lo usa navegador.mjs en cada capítulo.
//
// Los bytes se cuentan dos veces: como los sirve el servidor de la prueba
// (sin comprimir) y comprimidos con gzip, como los sirve GitHub Pages.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** Cuánto más lenta va la CPU al medir. */
export const FRENO_DE_CPU = 4;

/**
 * Para `contexto.addInitScript`: apunta en `window.__cursoDiagramas` el
 * momento (ms desde que empezó la navegación) en que el último diagrama
 * Mermaid de la página tiene su SVG; `0` si la página no tiene diagramas.
 */
export function vigilarDiagramas() {
  document.addEventListener("DOMContentLoaded", () => {
    const pres = [...document.querySelectorAll("pre.mermaid")];
    if (pres.length === 0) {
      window.__cursoDiagramas = 0;
      return;
    }
    const mirar = () => {
      if (window.__cursoDiagramas === undefined && pres.every((p) => p.querySelector("svg"))) {
        window.__cursoDiagramas = performance.now();
      }
    };
    for (const p of pres) new MutationObserver(mirar).observe(p, { childList: true });
  });
}

const comprimidos = new Map();
/** Los bytes con gzip (nivel 9) de un archivo del libro. */
function conGzip(carpeta, ruta) {
  if (!comprimidos.has(ruta)) {
    let n = null;
    try {
      n = gzipSync(readFileSync(join(carpeta, ruta)), { level: 9 }).length;
    } catch {
      n = null;
    }
    comprimidos.set(ruta, n);
  }
  return comprimidos.get(ruta);
}

/**
 * Prepara `pagina` (nueva, sin navegar) para medir: sin caché, CPU frenada y
 * contando lo que baja. Devuelve `terminar()`, que espera a los diagramas,
 * quita el freno y da { bytes, gzip, peticiones, diagramas_ms, urls }.
 * `base` es la URL del sitio y `carpeta`, la del libro en disco.
 */
export async function medirCarga(pagina, base, carpeta) {
  const cdp = await pagina.context().newCDPSession(pagina);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: FRENO_DE_CPU });
  const urls = new Map();
  const tamanos = new Map();
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.loadingFinished", (e) => tamanos.set(e.requestId, e.encodedDataLength));
  return async function terminar() {
    await pagina.waitForFunction(() => window.__cursoDiagramas !== undefined, null, { timeout: 120000 });
    const diagramas = await pagina.evaluate(() => window.__cursoDiagramas);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    let bytes = 0;
    let gzip = 0;
    const lista = [];
    for (const [id, n] of tamanos) {
      const url = urls.get(id) ?? "";
      bytes += n;
      const ruta = url.startsWith(base) ? decodeURIComponent(new URL(url).pathname.slice(new URL(base).pathname.length)) : null;
      const comprimido = ruta !== null ? conGzip(carpeta, ruta) : null;
      gzip += comprimido ?? n;
      lista.push(url);
    }
    await cdp.detach();
    return { bytes, gzip, peticiones: tamanos.size, diagramas_ms: Math.round(diagramas), urls: lista };
  };
}

/** «1 234 567» */
export const miles = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
