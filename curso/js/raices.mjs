// La raíz española de la búsqueda (curso/tema/raices-es.js) sale, sin
// tocarla, del paquete de npm @orama/stemmers: su `dist/es.js` es el
// algoritmo de Snowball para el español como módulo de JavaScript. El
// navegador la carga con un <script> normal (también desde file://, donde no
// se pueden cargar módulos), así que aquí se le quitan los dos `export` y se
// mete en una función que deja `window.raizEspanola`. Nada más.
//
// Uso: node raices.mjs            comprueba que curso/tema/raices-es.js es el del paquete
//      node raices.mjs --escribe  lo rehace (tras cambiar la versión del paquete)
// navegador.mjs hace la comprobación en cada pasada.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
export const RUTA_EN_EL_TEMA = fileURLToPath(new URL("../tema/raices-es.js", import.meta.url));

/** El texto que debe tener curso/tema/raices-es.js con el paquete instalado. */
export function generarRaices() {
  // require.resolve da dist/es.cjs (el de CommonJS); al lado está dist/es.js.
  const dist = dirname(require.resolve("@orama/stemmers/spanish"));
  const paquete = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8"));
  const fuente = readFileSync(join(dist, "es.js"), "utf8");
  const exportes = ["export function stemmer(", "export const language="];
  for (const e of exportes) {
    if (fuente.split(e).length !== 2) throw new Error(`@orama/stemmers ${paquete.version}: dist/es.js ya no tiene «${e}» una vez`);
  }
  const cuerpo = fuente.replace("export function stemmer(", "function stemmer(").replace("export const language=", "const language=");
  return `// La raíz española de la búsqueda: el algoritmo de Snowball para el español
// (https://snowballstem.org/algorithms/spanish/stemmer.html), tal como lo
// publica el paquete de npm @orama/stemmers ${paquete.version} (dist/es.js, licencia
// Apache-2.0, Copyright 2023 OramaSearch Inc.). NO SE EDITA A MANO: es el
// archivo del paquete con sus dos \`export\` quitados y metido en una función
// que deja \`window.raizEspanola\`; lo escribe \`node curso/js/raices.mjs
// --escribe\` y la prueba del navegador falla si no coincide. buscador.js
// lo carga al abrir la búsqueda.
(function () {
${cuerpo}
window.raizEspanola = stemmer;
window.raizEspanola.idioma = language;
})();
`;
}

/** ¿Es curso/tema/raices-es.js el que sale del paquete? Devuelve un problema o null. */
export function comprobarRaices() {
  const quiere = generarRaices();
  const hay = readFileSync(RUTA_EN_EL_TEMA, "utf8");
  return hay === quiere ? null : "curso/tema/raices-es.js no es el de @orama/stemmers instalado: rehazlo con `node curso/js/raices.mjs --escribe`";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv[2] === "--escribe") {
    writeFileSync(RUTA_EN_EL_TEMA, generarRaices());
    console.log(`escrito ${RUTA_EN_EL_TEMA}`);
  } else {
    const p = comprobarRaices();
    if (p) {
      console.error(`error: ${p}`);
      process.exit(1);
    }
    console.log("curso/tema/raices-es.js es el del paquete.");
  }
}
