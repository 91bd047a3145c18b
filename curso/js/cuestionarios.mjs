// Los cuestionarios y el botón «Ejecutar» del Playground, en Chromium sin
// interfaz y sin red. Lo llama navegador.mjs con su navegador de Playwright,
// la URL base del libro servido en loopback, la carpeta del libro construido
// y la de las capturas; devuelve la lista de problemas.
//
// A 390 y a 1280 px de ancho: responde una pregunta bien con el teclado y
// otra mal con el dedo (o el ratón), una con número, mira que se vean el
// veredicto y las explicaciones, que los objetivos midan 44 px, que nada se
// salga de la pantalla y, si axe-core está instalado, que axe no encuentre
// nada grave en el cuestionario respondido; recarga y encuentra el progreso
// guardado; «Reiniciar» lo borra. Después pulsa «Ejecutar» en un bloque con
// el Playground interceptado: el botón debe enviar el código del bloque con
// la edición del libro y enseñar la respuesta. Nada de esto sale a la red:
// cualquier petición a otro sitio (salvo la del botón, interceptada) es un
// problema, y también cualquier error en la consola.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const PLAYGROUND = "https://play.rust-lang.org/";
const RESPUESTA_SIMULADA = "¡Hola desde el Playground simulado!\n";

/** La primera página de capítulo cuyo HTML cumple `condicion`. */
function paginaCon(carpeta, condicion) {
  return readdirSync(carpeta)
    .filter((f) => /^\d\d-.*\.html$/.test(f))
    .sort()
    .find((f) => condicion(readFileSync(join(carpeta, f), "utf8")));
}

/** Un contexto sin red: todo lo que no sea del libro se corta (o lo contesta `playground`). */
async function contextoSinRed(navegador, base, ancho, problemas, etiqueta, playground) {
  const origen = new URL(base).origin;
  const contexto = await navegador.newContext({ viewport: { width: ancho, height: 900 }, isMobile: ancho < 600, hasTouch: ancho < 600 });
  contexto.setDefaultTimeout(60000);
  await contexto.route("**/*", (ruta) => {
    const url = ruta.request().url();
    if (url.startsWith(origen) || url.startsWith("data:") || url.startsWith("blob:")) return ruta.continue();
    if (playground && url.startsWith(PLAYGROUND)) return playground(ruta);
    problemas.push(`${etiqueta}: pide algo a otro sitio sin red: ${url}`);
    return ruta.abort();
  });
  contexto.on("console", (m) => {
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico")) {
      problemas.push(`${etiqueta}: error en la consola: ${m.text()}`);
    }
  });
  contexto.on("weberror", (e) => problemas.push(`${etiqueta}: excepción: ${e.error().message}`));
  return contexto;
}

async function abrir(contexto, base, ruta) {
  const pagina = await contexto.newPage();
  await pagina.goto(new URL(ruta, base).href, { waitUntil: "load" });
  // El guion ya corrió cuando el progreso tiene texto.
  await pagina.waitForFunction(() => document.querySelector(".cuestionario-progreso")?.textContent.trim() !== "");
  return pagina;
}

/** Lo que se ve de una pregunta: elegidas, deshabilitadas, explicaciones visibles y veredicto. */
async function estadoDe(pagina, id) {
  return pagina.evaluate((id) => {
    const form = document.getElementById(id);
    const entradas = [...form.querySelectorAll(".pregunta-opciones input, input[data-valor]")];
    const explicaciones = [...form.querySelectorAll(".opcion-explicacion, .pregunta-explicacion")];
    return {
      elegidas: entradas.filter((e) => e.checked).map((e) => e.value),
      valor: form.querySelector("input[data-valor]")?.value ?? null,
      bloqueadas: entradas.every((e) => e.disabled || e.readOnly),
      explicacionesVisibles: explicaciones.filter((e) => !e.hidden && e.getBoundingClientRect().height > 0).length,
      explicaciones: explicaciones.length,
      veredicto: form.querySelector(".pregunta-veredicto").textContent.trim(),
      textoDeLaElegida: form.querySelector(".pregunta-opciones input:checked")?.closest("li").querySelector(".opcion-explicacion").textContent ?? "",
    };
  }, id);
}

/** Las preguntas que se van a responder: una bien, otra mal, una con número. */
async function elegirPreguntas(pagina) {
  return pagina.evaluate(() => {
    const forms = [...document.querySelectorAll("section.cuestionario form.pregunta")];
    const unaSola = forms.filter((f) => f.dataset.varias === "false" && f.dataset.tipo !== "numero");
    const numero = forms.find((f) => f.dataset.tipo === "numero");
    const datos = (f) => {
      const lis = [...f.querySelectorAll("li.opcion")];
      return {
        id: f.id,
        correcta: lis.findIndex((li) => li.dataset.correcta === "true"),
        incorrecta: lis.findIndex((li) => li.dataset.correcta !== "true"),
      };
    };
    return {
      bien: unaSola[0] ? datos(unaSola[0]) : null,
      mal: unaSola[1] ? datos(unaSola[1]) : null,
      numero: numero ? { id: numero.id, valor: numero.querySelector("input[data-valor]").dataset.valor } : null,
      capitulo: document.querySelector("section.cuestionario").dataset.cuestionario,
    };
  });
}

async function probarUnAncho(navegador, base, ruta, ancho, capturas, problemas) {
  const etiqueta = `cuestionario de ${ruta} a ${ancho} px`;
  const contexto = await contextoSinRed(navegador, base, ancho, problemas, etiqueta);
  const mal = (texto) => problemas.push(`${etiqueta}: ${texto}`);
  try {
    let pagina = await abrir(contexto, base, ruta);
    const p = await elegirPreguntas(pagina);
    if (!p.bien || !p.mal || !p.numero) {
      mal("hace falta un cuestionario con dos preguntas de una respuesta y una con número");
      return;
    }

    // Bien, con el teclado: foco en la opción, espacio para elegirla, Intro para comprobar.
    await pagina.locator(`#${p.bien.id} li.opcion input`).nth(p.bien.correcta).focus();
    await pagina.keyboard.press("Space");
    await pagina.keyboard.press("Enter");
    let e = await estadoDe(pagina, p.bien.id);
    if (!e.veredicto.startsWith("¡Correcto!")) mal(`la respuesta correcta dice «${e.veredicto}»`);
    if (e.explicacionesVisibles !== e.explicaciones) mal(`tras responder bien se ven ${e.explicacionesVisibles} de ${e.explicaciones} explicaciones`);
    if (!e.textoDeLaElegida.startsWith("Correcta.")) mal(`la explicación de la elegida no empieza por «Correcta.»: ${e.textoDeLaElegida.slice(0, 60)}`);

    // Mal, con el dedo (o el ratón): toca la fila de una opción incorrecta y «Comprobar».
    const fila = pagina.locator(`#${p.mal.id} li.opcion label`).nth(p.mal.incorrecta);
    const boton = pagina.locator(`#${p.mal.id} .pregunta-comprobar`);
    if (ancho < 600) {
      await fila.tap();
      await boton.tap();
    } else {
      await fila.click();
      await boton.click();
    }
    e = await estadoDe(pagina, p.mal.id);
    if (!e.veredicto.startsWith("No")) mal(`la respuesta incorrecta dice «${e.veredicto}»`);
    if (e.explicacionesVisibles !== e.explicaciones) mal(`tras responder mal se ven ${e.explicacionesVisibles} de ${e.explicaciones} explicaciones`);
    if (!e.textoDeLaElegida.startsWith("Incorrecta.")) mal(`la explicación de la elegida no empieza por «Incorrecta.»`);

    // Un número, con coma decimal, como lo escribiría quien lee.
    const escrito = String(Number(p.numero.valor)).replace(".", ",");
    await pagina.locator(`#${p.numero.id} input[data-valor]`).fill(escrito);
    await pagina.locator(`#${p.numero.id} input[data-valor]`).press("Enter");
    e = await estadoDe(pagina, p.numero.id);
    if (!e.veredicto.startsWith("¡Correcto!")) mal(`el número medido («${escrito}») dice «${e.veredicto}»`);
    if (e.explicacionesVisibles !== e.explicaciones) mal("la explicación de la pregunta con número no se ve");

    // En la pantalla: nada se sale, y cada objetivo mide al menos 44 px.
    const medidas = await pagina.evaluate(() => {
      const seccion = document.querySelector("section.cuestionario");
      const pequenos = [...seccion.querySelectorAll("button, label.opcion-etiqueta, input[data-valor]")]
        .map((el) => ({ el: el.className || el.tagName, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && (r.height < 44 || r.width < 44))
        .map(({ el, r }) => `${el} (${Math.round(r.width)}×${Math.round(r.height)})`);
      const sale = [...seccion.querySelectorAll("*")]
        .filter((el) => !el.closest("pre"))
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((el) => el.className || el.tagName);
      return { pequenos, sale: [...new Set(sale)].slice(0, 5), ancho: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1 };
    });
    if (medidas.pequenos.length) mal(`objetivos de menos de 44 px: ${medidas.pequenos.slice(0, 5).join(", ")}`);
    if (medidas.sale.length) mal(`se sale de la pantalla: ${medidas.sale.join(", ")}`);
    if (medidas.ancho) mal("la página se desplaza en horizontal");

    // axe-core sobre el cuestionario respondido, si navegador.mjs lo tiene instalado.
    const axe = await import("./axe.mjs").catch(() => null);
    if (axe?.pasarAxe) {
      const { graves } = await axe.pasarAxe(pagina);
      for (const v of graves) {
        const nodos = v.nodos.filter((n) => /cuestionario|pregunta|opcion|playground|play-button|bloque-en-tu-copia/.test(n));
        if (nodos.length) mal(`axe (${v.gravedad}): ${v.regla}: ${v.ayuda} (${nodos.slice(0, 3).join(", ")})`);
      }
    }
    await pagina.locator("section.cuestionario").screenshot({ path: join(capturas, `cuestionario-${ancho}.png`) });

    // Recargar: el progreso sigue ahí.
    const antes = { bien: await estadoDe(pagina, p.bien.id), mal: await estadoDe(pagina, p.mal.id) };
    await pagina.reload({ waitUntil: "load" });
    await pagina.waitForFunction(() => document.querySelector(".cuestionario-progreso")?.textContent.trim() !== "");
    for (const [cual, id] of [["bien", p.bien.id], ["mal", p.mal.id]]) {
      const ahora = await estadoDe(pagina, id);
      if (ahora.elegidas.join() !== antes[cual].elegidas.join() || !ahora.bloqueadas || ahora.veredicto !== antes[cual].veredicto) {
        mal(`tras recargar, la pregunta respondida ${cual} no conserva su respuesta (${JSON.stringify(ahora)})`);
      }
    }
    const progreso = await pagina.locator(".cuestionario-progreso").textContent();
    if (!/Has respondido 3 de/.test(progreso)) mal(`tras recargar, el progreso dice «${progreso}»`);

    // «Reiniciar» lo borra, también del almacenamiento.
    await pagina.locator(".cuestionario-reiniciar").click();
    const limpio = await estadoDe(pagina, p.bien.id);
    if (limpio.elegidas.length || limpio.bloqueadas || limpio.explicacionesVisibles) mal("«Reiniciar» no deja la pregunta en blanco");
    const guardado = await pagina.evaluate((c) => JSON.parse(localStorage.getItem("curso-cuestionarios") || "{}")[c] ?? null, p.capitulo);
    if (guardado) mal(`«Reiniciar» no borra lo guardado: ${JSON.stringify(guardado)}`);
    await pagina.reload({ waitUntil: "load" });
    await pagina.waitForFunction(() => document.querySelector(".cuestionario-progreso")?.textContent.trim() !== "");
    if ((await estadoDe(pagina, p.bien.id)).elegidas.length) mal("tras «Reiniciar» y recargar, vuelve una respuesta");
    await pagina.close();
  } catch (error) {
    mal(`la prueba se interrumpió: ${error.message.split("\n")[0]}`);
  } finally {
    await contexto.close();
  }
}

/** «Ejecutar» con el Playground interceptado: envía el código del bloque y enseña la respuesta. */
async function probarPlayground(navegador, base, ruta, problemas) {
  const etiqueta = `«Ejecutar» en ${ruta}`;
  const mal = (texto) => problemas.push(`${etiqueta}: ${texto}`);
  const enviados = [];
  const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type", "access-control-allow-methods": "POST" };
  const contexto = await contextoSinRed(navegador, base, 1280, problemas, etiqueta, (r) => {
    if (r.request().method() === "OPTIONS") return r.fulfill({ status: 204, headers: cors });
    enviados.push({ url: r.request().url(), cuerpo: r.request().postData() });
    return r.fulfill({ status: 200, headers: cors, contentType: "application/json", body: JSON.stringify({ result: RESPUESTA_SIMULADA, error: null }) });
  });
  try {
    const pagina = await contexto.newPage();
    await pagina.goto(new URL(ruta, base).href, { waitUntil: "load" });
    if (enviados.length) mal("la página habla con el Playground antes de pulsar «Ejecutar»");
    const bloque = pagina.locator("pre.playground").first();
    const codigo = await bloque.locator("code").first().evaluate((c) => c.textContent);
    const clases = await bloque.locator("code").first().getAttribute("class");
    const boton = bloque.locator("button.play-button");
    if (!(await boton.isVisible())) mal("el botón «Ejecutar» no se ve sin pasar el ratón");
    const nombre = await boton.getAttribute("aria-label");
    if (!/^Ejecutar/.test(nombre ?? "")) mal(`el botón se llama «${nombre}»`);
    await boton.focus();
    await pagina.keyboard.press("Enter");
    await pagina.waitForFunction(
      (esperado) => document.querySelector("pre.playground .result")?.textContent.includes(esperado.trim()),
      RESPUESTA_SIMULADA,
      { timeout: 15000 },
    ).catch(() => mal("la respuesta del Playground no aparece debajo del bloque"));
    if (enviados.length !== 1) {
      mal(`se enviaron ${enviados.length} peticiones al Playground, esperaba 1`);
    } else {
      const cuerpo = JSON.parse(enviados[0].cuerpo);
      if (!enviados[0].url.endsWith("/evaluate.json")) mal(`pide ${enviados[0].url}`);
      if (cuerpo.code !== codigo) mal("el código enviado no es el del bloque");
      const edicion = /edition(\d{4})/.exec(clases ?? "")?.[1];
      if (!edicion || cuerpo.edition !== edicion) mal(`edición enviada ${cuerpo.edition}, la del bloque ${edicion}`);
    }
    await pagina.close();
  } catch (error) {
    mal(`la prueba se interrumpió: ${error.message.split("\n")[0]}`);
  } finally {
    await contexto.close();
  }
  return enviados.length;
}

/**
 * La prueba entera. `navegador`: el de Playwright; `base`: la URL del libro
 * servido; `carpeta`: el libro construido; `capturas`: dónde dejar las
 * capturas. Devuelve la lista de problemas (vacía si todo va bien).
 */
export async function probarCuestionarios({ navegador, base, carpeta, capturas }) {
  const problemas = [];
  const conCuestionario = paginaCon(carpeta, (html) => html.includes('data-tipo="numero"'));
  if (!conCuestionario) {
    problemas.push("ningún capítulo tiene un cuestionario con una pregunta de número");
  } else {
    for (const ancho of [390, 1280]) await probarUnAncho(navegador, base, conCuestionario, ancho, capturas, problemas);
  }
  const conPlayground = paginaCon(carpeta, (html) => html.includes('<pre class="playground">'));
  if (!conPlayground) {
    problemas.push("ningún bloque del libro lleva el botón «Ejecutar»");
  } else {
    await probarPlayground(navegador, base, conPlayground, problemas);
  }
  console.log(`Cuestionario probado en ${conCuestionario} a 390 y 1280 px; «Ejecutar» en ${conPlayground}: ${problemas.length} problemas`);
  return problemas;
}
