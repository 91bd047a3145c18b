// Lo que navegador.mjs mide dentro de cada página, a 390 y a 1280 px:
//
// - `medirFiguras`: cada diagrama Mermaid y cada gráfica de book/graficas/,
//   con el texto más pequeño tal como se ve (tamaño de letra por la escala
//   con que se dibuja), si su caja se desplaza en horizontal, si entonces
//   enseña «desliza →» y se alcanza con el teclado, y su texto alternativo;
// - `medirReproductores`: los controles de cada reproductor de trazas (su
//   tamaño como diana táctil, su letra y si se alcanzan con el teclado).

/** El texto de una figura no baja de esto, en px CSS, a ningún ancho. */
export const PX_MINIMOS = 11;
/** Una diana táctil mide al menos esto por lado, y su letra, al menos LETRA_MINIMA. */
export const DIANA_MINIMA = 44;
export const LETRA_MINIMA = 12;

/**
 * Devuelve [{ tipo: "diagrama" | "grafica", cual, minimo, texto, desborda,
 * aviso, foco, alternativo }] de las figuras visibles de `pagina`.
 */
export async function medirFiguras(pagina) {
  return pagina.evaluate(async () => {
    const salida = [];
    const caja = (el) => el.closest("pre.mermaid, .figura-desplazable");
    const estado = (scroller) => {
      const desborda = !!scroller && scroller.scrollWidth > scroller.clientWidth + 1;
      const aviso = scroller?.previousElementSibling;
      return {
        desborda,
        aviso: !!aviso && aviso.classList.contains("desliza") && aviso.offsetHeight > 0 && /desliza/.test(aviso.textContent),
        foco: !!scroller && scroller.tabIndex >= 0,
      };
    };
    document.querySelectorAll("main pre.mermaid").forEach((pre, i) => {
      const svg = pre.querySelector("svg");
      if (!svg) {
        salida.push({ tipo: "diagrama", cual: `${i + 1}`, minimo: 0, texto: "(sin dibujar)", ...estado(pre), alternativo: "" });
        return;
      }
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
      // El texto alternativo de Mermaid: accTitle (<title>) y accDescr (<desc>).
      const ids = `${svg.getAttribute("aria-labelledby") ?? ""} ${svg.getAttribute("aria-describedby") ?? ""}`.trim().split(/\s+/);
      const alternativo = ids.map((id) => (id ? document.getElementById(id)?.textContent.trim() ?? "" : "")).join(" ").trim();
      salida.push({ tipo: "diagrama", cual: `${i + 1}`, minimo: Math.round(minimo * 10) / 10, texto, ...estado(caja(pre)), alternativo });
    });
    for (const img of document.querySelectorAll("main img")) {
      if (!/graficas\/[^/]+\.svg$/.test(new URL(img.src).pathname)) continue;
      // Las copias ocultas (la ampliación al tocar la imagen) no se ven: no se miden.
      if (img.getBoundingClientRect().width === 0) continue;
      const fuente = await (await fetch(img.src)).text();
      const svg = new DOMParser().parseFromString(fuente, "image/svg+xml").documentElement;
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
      salida.push({
        tipo: "grafica",
        cual: new URL(img.src).pathname.split("/").pop(),
        minimo: Math.round(minimo * 10) / 10,
        texto: cual,
        conPunto,
        ...estado(caja(img)),
        alternativo: img.alt ?? "",
      });
    }
    return salida;
  });
}

/**
 * Los controles de los reproductores montados de `pagina`:
 * [{ reproductor, control, ancho, alto, letra, foco }].
 */
export async function medirReproductores(pagina) {
  return pagina.evaluate(() => {
    const salida = [];
    for (const r of document.querySelectorAll(".reproductor[data-listo]")) {
      const controles = r.querySelectorAll(".rep-pantalla button, .rep-pantalla select, .rep-pantalla input");
      for (const c of controles) {
        const caja = c.getBoundingClientRect();
        salida.push({
          reproductor: r.id,
          control: c.getAttribute("aria-label") || c.closest("label")?.textContent.trim().split(/\s/)[0] || c.tagName,
          ancho: Math.round(caja.width),
          alto: Math.round(caja.height),
          letra: parseFloat(getComputedStyle(c).fontSize),
          foco: c.tabIndex >= 0,
        });
      }
      salida.push({ reproductor: r.id, control: "(el reproductor)", ancho: 99, alto: 99, letra: 16, foco: r.tabIndex >= 0 });
    }
    return salida;
  });
}
