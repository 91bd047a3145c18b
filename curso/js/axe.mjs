// axe-core (el paquete de npm, a la versión de package.json) dentro de una
// página que ya tiene abierta Playwright. Lo usa navegador.mjs en cada página
// del libro, a 390 y a 1280 px de ancho.
//
// El guion de axe entra en la página como texto (no se pide a ningún sitio) y
// se ejecuta con su configuración por defecto (las reglas de WCAG 2.0-2.2 A
// y AA y las buenas prácticas que axe trae activadas). Se devuelven las
// violaciones graves («serious») y críticas («critical»), que son las que
// hacen fallar la prueba, y aparte las leves.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const RUTA_DE_AXE = require.resolve("axe-core/axe.min.js");
const FUENTE = readFileSync(RUTA_DE_AXE, "utf8");
export const VERSION_DE_AXE = JSON.parse(readFileSync(require.resolve("axe-core/package.json"), "utf8")).version;

/** Las gravedades que hacen fallar la prueba. */
export const GRAVES = ["serious", "critical"];

/**
 * Pasa axe por `pagina` (de Playwright) y devuelve
 * `{ graves: [{ regla, gravedad, ayuda, nodos: [selector...] }], leves: n }`.
 */
export async function pasarAxe(pagina) {
  const yaEsta = await pagina.evaluate(() => typeof window.axe !== "undefined");
  if (!yaEsta) await pagina.evaluate(FUENTE);
  const resultado = await pagina.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      regla: v.id,
      gravedad: v.impact,
      ayuda: v.help,
      nodos: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  const graves = resultado.filter((v) => GRAVES.includes(v.gravedad));
  const leves = resultado.filter((v) => !GRAVES.includes(v.gravedad));
  return { graves, leves };
}
