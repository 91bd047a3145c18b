// El reproductor de trazas del libro: enseña, evento a evento, una ejecución
// grabada (el ejecutor con robo del capítulo 9, el Tokio de verdad del 8 o el
// simulador del 13).
// Sin bibliotecas ni red.
//
// Uso en un capítulo:
//   <div class="reproductor" id="rep-reparto" data-traza="trazas/reparto-2.json"></div>
//   <script src="reproductor/reproductor.js"></script>
//
// La traza llega dentro de la página: al construir el libro, el
// preprocesador del curso (curso/src/libro/trazas.rs) copia el JSON de
// `data-traza` en un <script type="application/json" class="rep-datos">
// dentro del <div>. Así el reproductor funciona también al abrir el libro
// desde sus archivos (file://), donde el navegador no deja pedir nada con
// fetch. Si no está dentro (una página escrita a mano), se pide con fetch,
// relativa a la página.
//
// `?paso=N` abre el primer reproductor de la página en el paso N (el estado
// tras N eventos); `?paso=N&reproductor=ID`, el que tiene ese id.
//
// Accesible: se maneja con el teclado (Tab llega a cada control; con el foco
// en el reproductor, ← → Inicio Fin y la barra espaciadora), anuncia cada
// paso en una región `aria-live` (callada mientras reproduce solo: se
// anuncia al parar) y, con `prefers-reduced-motion`, reproduce despacio.
// El color nunca va solo: el tipo de evento, el trabajador que actúa y las
// alertas llevan además una etiqueta de texto.
(function () {
  "use strict";

  var MAX_FICHAS = 40; // más fichas en una cola no caben: se resumen

  // Las etiquetas visibles de los tipos de evento que el libro resalta. Un
  // tipo que no está aquí (el de una traza nueva) sale con su propio nombre.
  var TIPOS = {
    robo: "Robo", desborde: "Desborde", tope: "Tope", duerme: "Duerme", despierta: "Despierta",
    invariante: "Invariante", entrega: "Entrega", sondea: "Sondea", termina: "Termina", lanza: "Lanza",
    lote: "Lote", ranura: "Ranura", pendiente: "Pendiente", cede: "Cede", inicio: "Inicio",
    global: "Cola global", acaba: "Acaba", cierre: "Cierre",
  };

  var menosMovimiento = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function crea(etiqueta, clase, texto) {
    var e = document.createElement(etiqueta);
    if (clase) e.className = clase;
    if (texto !== undefined) e.textContent = texto;
    return e;
  }

  function ficha(valor, elemento) {
    var f = crea("span", "rep-ficha", String(valor));
    f.title = ((elemento || "") + " " + valor).trim();
    return f;
  }

  function parametros() {
    var p = new URLSearchParams(window.location.search);
    return { paso: p.get("paso"), reproductor: p.get("reproductor") };
  }

  function estadoEn(traza, n) {
    return n === 0 ? traza.inicial : traza.eventos[n - 1].estado;
  }

  // Dibuja un estado en `caja`: una columna por trabajador (o isolate) y las
  // colas comunes debajo.
  function dibujaEstado(caja, traza, estado, columnaActiva) {
    caja.textContent = "";
    var rejilla = crea("div", "rep-columnas");
    traza.columnas.forEach(function (nombre, i) {
      var c = estado.columnas[i];
      var col = crea("section", "rep-columna");
      col.setAttribute("data-columna", String(i));
      if (c.dormido) col.classList.add("rep-dormido");
      var cab = crea("h4", "rep-nombre", nombre);
      if (i === columnaActiva) {
        col.classList.add("rep-activa");
        cab.appendChild(crea("span", "rep-actua", " ◆ actúa"));
      }
      if (c.dormido) cab.appendChild(crea("span", "rep-duerme", " duerme"));
      col.appendChild(cab);
      (traza.casillas || []).forEach(function (casilla) {
        var v = c[casilla.clave];
        var fila = crea("div", "rep-casilla");
        fila.setAttribute("data-casilla", casilla.clave);
        fila.setAttribute("data-valor", v === null || v === undefined ? "" : String(v));
        fila.appendChild(crea("span", "rep-rotulo", casilla.nombre + ": "));
        if (v === null || v === undefined) fila.appendChild(crea("span", "rep-vacia", "—"));
        else fila.appendChild(ficha(v, casilla.elemento !== undefined ? casilla.elemento : traza.elemento));
        col.appendChild(fila);
      });
      (traza.listas || []).forEach(function (lista) {
        col.appendChild(dibujaLista(lista, c[lista.clave] || [], traza.elemento, "data-lista"));
      });
      rejilla.appendChild(col);
    });
    caja.appendChild(rejilla);
    (traza.comunes || []).forEach(function (comun) {
      var v = estado.comunes[comun.clave];
      var l = typeof v === "number" ? dibujaCuenta(comun, v) : dibujaLista(comun, v || [], traza.elemento, "data-comun");
      l.classList.add("rep-comun");
      caja.appendChild(l);
    });
  }

  function dibujaLista(def, valores, elemento, atributo) {
    var caja = crea("div", "rep-lista");
    caja.setAttribute(atributo, def.clave);
    caja.setAttribute("data-largo", String(valores.length));
    caja.setAttribute("data-ids", valores.join("|"));
    caja.appendChild(crea("span", "rep-rotulo", def.nombre + " (" + valores.length + "): "));
    if (valores.length === 0) caja.appendChild(crea("span", "rep-vacia", "vacía"));
    valores.slice(0, MAX_FICHAS).forEach(function (v) {
      caja.appendChild(ficha(v, elemento));
    });
    if (valores.length > MAX_FICHAS) {
      caja.appendChild(crea("span", "rep-mas", "y " + (valores.length - MAX_FICHAS) + " más"));
    }
    return caja;
  }

  // Una cola común de la que la traza solo sabe cuántas tareas tiene (la
  // cola global del Tokio de verdad, en las trazas grabadas del capítulo 8).
  function dibujaCuenta(def, n) {
    var caja = crea("div", "rep-lista");
    caja.setAttribute("data-comun", def.clave);
    caja.setAttribute("data-largo", String(n));
    caja.setAttribute("data-ids", "");
    caja.appendChild(crea("span", "rep-rotulo", def.nombre + ": "));
    caja.appendChild(ficha(n, ""));
    return caja;
  }

  function monta(raiz, traza, pasoInicial) {
    var total = traza.eventos.length;
    var paso = 0;
    var temporizador = null;
    raiz.textContent = "";
    raiz.setAttribute("tabindex", "0");
    raiz.setAttribute("role", "group");
    raiz.setAttribute("aria-label", "Reproductor de la traza: " + traza.titulo);
    raiz.setAttribute("aria-roledescription", "reproductor");
    raiz.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Home End Space");

    var pantalla = crea("div", "rep-pantalla");
    pantalla.appendChild(crea("p", "rep-titulo", traza.titulo));
    if (traza.descripcion) pantalla.appendChild(crea("p", "rep-descripcion", traza.descripcion));
    pantalla.appendChild(crea("p", "rep-ayuda",
      "Con el foco aquí: ← y → un paso, Inicio y Fin a los extremos, espacio para reproducir o parar."));

    var controles = crea("div", "rep-controles");
    function boton(texto, etiqueta, accion) {
      var b = crea("button", "rep-boton", texto);
      b.type = "button";
      b.setAttribute("aria-label", etiqueta);
      b.title = etiqueta;
      b.addEventListener("click", accion);
      controles.appendChild(b);
      return b;
    }
    boton("|◀", "Al principio", function () { para(); ir(0); });
    var bAtras = boton("◀", "Paso atrás", function () { para(); ir(paso - 1); });
    var bPlay = boton("▶ Reproducir", "Reproducir", function () { temporizador ? para() : reproduce(); });
    var bAdelante = boton("▶", "Paso adelante", function () { para(); ir(paso + 1); });
    boton("▶|", "Al final", function () { para(); ir(total); });
    var etiquetaVelocidad = crea("label", "rep-velocidad", "Velocidad ");
    var velocidad = crea("select");
    // Con menos movimiento, la lenta por defecto.
    var porDefecto = menosMovimiento ? 0 : 1;
    [["2000", "lenta"], ["900", "normal"], ["350", "rápida"], ["80", "muy rápida"]].forEach(function (o, i) {
      var op = crea("option", null, o[1]);
      op.value = o[0];
      if (i === porDefecto) op.selected = true;
      velocidad.appendChild(op);
    });
    velocidad.addEventListener("change", function () { if (temporizador) { para(); reproduce(); } });
    etiquetaVelocidad.appendChild(velocidad);
    controles.appendChild(etiquetaVelocidad);

    var barra = crea("input", "rep-barra");
    barra.type = "range";
    barra.min = "0";
    barra.max = String(total);
    barra.step = "1";
    barra.setAttribute("aria-label", "Paso de la traza");
    barra.addEventListener("input", function () { para(); ir(parseInt(barra.value, 10)); });

    var contador = crea("p", "rep-contador");
    var tipo = crea("p", "rep-tipo");
    var texto = crea("p", "rep-texto");
    // Lo que oye quien usa un lector de pantalla: el paso y lo que pasó.
    var anuncio = crea("p", "rep-anuncio");
    anuncio.setAttribute("aria-live", "polite");
    anuncio.setAttribute("aria-atomic", "true");
    var estadoCaja = crea("div", "rep-estado");

    pantalla.appendChild(controles);
    pantalla.appendChild(barra);
    pantalla.appendChild(contador);
    pantalla.appendChild(tipo);
    pantalla.appendChild(texto);
    pantalla.appendChild(anuncio);
    pantalla.appendChild(estadoCaja);
    raiz.appendChild(pantalla);

    // Para imprimir: el estado inicial y el final, quietos.
    var impreso = crea("div", "rep-impreso");
    impreso.appendChild(crea("p", "rep-titulo", traza.titulo + " (estado inicial y final)"));
    impreso.appendChild(crea("p", "rep-contador", "Estado inicial"));
    var cajaInicial = crea("div", "rep-estado");
    dibujaEstado(cajaInicial, traza, traza.inicial, null);
    impreso.appendChild(cajaInicial);
    impreso.appendChild(crea("p", "rep-contador", "Estado final, tras " + total + " eventos"));
    var cajaFinal = crea("div", "rep-estado");
    dibujaEstado(cajaFinal, traza, estadoEn(traza, total), null);
    impreso.appendChild(cajaFinal);
    raiz.appendChild(impreso);

    function ir(n, sinUrl) {
      if (isNaN(n)) n = 0;
      paso = Math.max(0, Math.min(total, n));
      var ev = paso === 0 ? null : traza.eventos[paso - 1];
      var clase = ev ? ev.tipo : "inicio";
      var alerta = !!(ev && ev.alerta);
      raiz.setAttribute("data-paso", String(paso));
      raiz.setAttribute("data-tipo", clase);
      raiz.classList.toggle("rep-alerta", alerta);
      barra.value = String(paso);
      barra.setAttribute("aria-valuetext", "paso " + paso + " de " + total);
      contador.textContent = "Paso " + paso + " de " + total;
      var nombreDelTipo = (alerta ? "⚠ Alerta · " : "") + (TIPOS[clase] || clase);
      tipo.textContent = nombreDelTipo;
      tipo.className = "rep-tipo rep-tipo-" + clase + (alerta ? " rep-tipo-alerta" : "");
      texto.textContent = ev ? ev.texto : "Estado inicial: aún no ha pasado nada. Avanza un paso.";
      texto.className = "rep-texto rep-tipo-" + clase + (alerta ? " rep-texto-alerta" : "");
      if (!temporizador) anuncia();
      dibujaEstado(estadoCaja, traza, estadoEn(traza, paso), ev ? ev.columna : null);
      bAtras.disabled = paso === 0;
      bAdelante.disabled = paso === total;
      if (!sinUrl) ponEnUrl();
    }

    function anuncia() {
      anuncio.textContent = contador.textContent + ". " + tipo.textContent + ": " + texto.textContent;
    }

    function ponEnUrl() {
      if (!window.history || !window.history.replaceState) return;
      var url = new URL(window.location.href);
      url.searchParams.set("paso", String(paso));
      var primero = document.querySelector(".reproductor[data-traza]");
      if (raiz !== primero && raiz.id) url.searchParams.set("reproductor", raiz.id);
      else url.searchParams.delete("reproductor");
      try {
        window.history.replaceState(window.history.state, "", url.toString());
      } catch (e) {
        // Algunos navegadores no dejan cambiar la dirección de un file://.
      }
    }

    function reproduce() {
      if (paso >= total) ir(0);
      bPlay.textContent = "⏸ Pausa";
      bPlay.setAttribute("aria-label", "Pausa");
      bPlay.title = "Pausa";
      // Mientras avanza solo, la región viva calla: se anuncia al parar.
      anuncio.setAttribute("aria-live", "off");
      temporizador = window.setInterval(function () {
        if (paso >= total) { para(); return; }
        ir(paso + 1);
      }, parseInt(velocidad.value, 10));
    }

    function para() {
      var estaba = !!temporizador;
      if (temporizador) window.clearInterval(temporizador);
      temporizador = null;
      bPlay.textContent = "▶ Reproducir";
      bPlay.setAttribute("aria-label", "Reproducir");
      bPlay.title = "Reproducir";
      anuncio.setAttribute("aria-live", "polite");
      if (estaba) anuncia();
    }

    raiz.addEventListener("keydown", function (ev) {
      if (ev.target && ev.target.tagName === "SELECT") return;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var n = null;
      if (ev.key === "ArrowRight") n = paso + 1;
      else if (ev.key === "ArrowLeft") n = paso - 1;
      else if (ev.key === "Home") n = 0;
      else if (ev.key === "End") n = total;
      else if ((ev.key === " " || ev.key === "k") && ev.target === raiz) {
        ev.preventDefault();
        ev.stopPropagation();
        temporizador ? para() : reproduce();
        return;
      }
      if (n !== null && ev.target !== barra) {
        // Que no lleguen al libro: mdBook cambia de capítulo con las flechas.
        ev.preventDefault();
        ev.stopPropagation();
        para();
        ir(n);
      }
    });

    ir(pasoInicial, true);
  }

  // La traza de `raiz`: la que lleva dentro o, si no, la de su data-traza.
  function cargaTraza(raiz) {
    var dentro = raiz.querySelector("script.rep-datos");
    if (dentro) {
      return new Promise(function (ok) { ok(JSON.parse(dentro.textContent)); });
    }
    var url = new URL(raiz.getAttribute("data-traza"), document.baseURI);
    return fetch(url.toString()).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  }

  function arranca() {
    var raices = Array.prototype.slice.call(document.querySelectorAll(".reproductor[data-traza]"));
    var p = parametros();
    raices.forEach(function (raiz, i) {
      if (raiz.getAttribute("data-montado")) return;
      raiz.setAttribute("data-montado", "1");
      var elegido = p.reproductor ? raiz.id === p.reproductor : i === 0;
      var inicial = elegido && p.paso !== null ? parseInt(p.paso, 10) : 0;
      cargaTraza(raiz)
        .then(function (traza) {
          monta(raiz, traza, inicial);
          raiz.setAttribute("data-listo", "1");
        })
        .catch(function (e) {
          raiz.setAttribute("data-error", String(e));
          var aviso = crea("p", "rep-fallo", "No se pudo cargar la traza " + raiz.getAttribute("data-traza") +
            " (" + e.message + "). Construye el libro con `cargo libro`, que la lleva dentro de la página.");
          raiz.appendChild(aviso);
        });
    });
  }

  // La hoja de estilo va al lado del guion.
  (function hoja() {
    var guion = document.currentScript;
    if (!guion || document.querySelector("link[data-reproductor]")) return;
    var enlace = document.createElement("link");
    enlace.rel = "stylesheet";
    enlace.href = new URL("reproductor.css", guion.src).toString();
    enlace.setAttribute("data-reproductor", "1");
    document.head.appendChild(enlace);
  })();

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arranca);
  else arranca();
})();
