// El PDF del libro, en la prueba del navegador: se construye (pdf.mjs) en la
// carpeta del libro servido, como lo publica el flujo de Pages; la
// introducción y la guía para quien enseña lo enlazan y el enlace responde;
// su índice lleva la página de cada capítulo; y la página con el primer
// diagrama, abierta con pdftoppm, tiene el diagrama dibujado (sus textos
// están en la página, no su código Mermaid, y la imagen no está en blanco).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hacerPdf, NOMBRE_DEL_PDF } from "./pdf.mjs";

/** Las páginas que enlazan el PDF. */
const ENLAZAN_EL_PDF = ["introduccion.html", "guia-instructor.html"];

/** La fracción de píxeles no blancos de una imagen PGM (P5, 8 bits) de pdftoppm. */
function tinta(pgm) {
  // Cabecera: «P5\n<ancho> <alto>\n255\n» (pdftoppm no escribe comentarios).
  let pos = 0;
  const campos = [];
  while (campos.length < 4) {
    while (/\s/.test(String.fromCharCode(pgm[pos]))) pos++;
    const inicio = pos;
    while (!/\s/.test(String.fromCharCode(pgm[pos]))) pos++;
    campos.push(pgm.subarray(inicio, pos).toString("latin1"));
  }
  const [magia, ancho, alto] = [campos[0], Number(campos[1]), Number(campos[2])];
  if (magia !== "P5") throw new Error(`pdftoppm no dio una imagen PGM (${magia})`);
  const pixeles = pgm.subarray(pos + 1, pos + 1 + ancho * alto);
  let oscuros = 0;
  for (const p of pixeles) if (p < 200) oscuros++;
  return oscuros / pixeles.length;
}

export async function revisarPdf({ navegador, base, carpeta, capturas, contexto }) {
  const problemas = [];
  const salida = join(carpeta, NOMBRE_DEL_PDF);
  let r;
  try {
    r = await hacerPdf(navegador, carpeta, salida);
  } catch (e) {
    return [`PDF: no se pudo construir: ${e.message}`];
  }
  const mb = (r.bytes / 1e6).toFixed(1).replace(".", ",");
  console.log(`\nPDF del libro: ${r.paginas} páginas, ${mb} MB, construido en ${r.segundos.toFixed(0)} s; índice:`);
  console.log(r.capitulos.map((c) => `  ${c.titulo} … ${c.pagina}`).join("\n"));
  if (r.capitulos.length < 20) problemas.push(`PDF: el índice solo tiene ${r.capitulos.length} capítulos`);

  // Enlazado desde la introducción y la guía, y servido con el sitio.
  for (const pagina of ENLAZAN_EL_PDF) {
    const html = readFileSync(join(carpeta, pagina), "utf8");
    if (!html.includes(`href="${NOMBRE_DEL_PDF}"`)) problemas.push(`${pagina}: no enlaza el PDF del libro (${NOMBRE_DEL_PDF})`);
  }
  const respuesta = await contexto.request.get(new URL(NOMBRE_DEL_PDF, base).href);
  if (respuesta.status() !== 200) problemas.push(`PDF: ${NOMBRE_DEL_PDF} da ${respuesta.status()} en el sitio`);

  // La página del primer diagrama: sus textos, sin el código de Mermaid, y tinta.
  if (r.diagrama.length < 2) {
    problemas.push(`PDF: no encuentro los textos del primer diagrama en print.html (${r.diagrama})`);
    return problemas;
  }
  const indice = r.texto.findIndex((t) => r.diagrama.every((e) => t.includes(e.replace(/\s+/g, " "))));
  if (indice < 0) {
    problemas.push(`PDF: ninguna página tiene los textos del primer diagrama (${r.diagrama.join(", ")}): ¿no se dibujó?`);
    return problemas;
  }
  const n = indice + 1;
  if (/\b(sequenceDiagram|flowchart|graph TD|stateDiagram|gantt)\b/.test(r.texto[indice])) {
    problemas.push(`PDF: la página ${n} enseña el código del diagrama en lugar del dibujo`);
  }
  try {
    const pgm = execFileSync("pdftoppm", ["-f", String(n), "-l", String(n), "-r", "40", "-gray", salida]);
    const fraccion = tinta(pgm);
    if (fraccion < 0.02) problemas.push(`PDF: la página ${n}, la del primer diagrama, está casi en blanco (${(fraccion * 100).toFixed(1)} % de tinta)`);
    execFileSync("pdftoppm", ["-f", String(n), "-l", String(n), "-r", "60", "-png", "-singlefile", salida, join(capturas, "pdf-diagrama")]);
    console.log(`Página ${n} del PDF (con el primer diagrama): ${(fraccion * 100).toFixed(1).replace(".", ",")} % de tinta; captura en ${join(capturas, "pdf-diagrama.png")}`);
  } catch (e) {
    problemas.push(`PDF: pdftoppm no pudo abrir la página ${n}: ${e.code === "ENOENT" ? "falta pdftoppm (poppler-utils)" : e.message.split("\n")[0]}`);
  }
  writeFileSync(join(capturas, "pdf.json"), JSON.stringify({ paginas: r.paginas, bytes: r.bytes, segundos: r.segundos, capitulos: r.capitulos }, null, 1));
  return problemas;
}
