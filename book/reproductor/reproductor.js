// El reproductor de trazas del libro: enseña, evento a evento, una ejecución
// grabada (el ejecutor con robo del capítulo 9, o el simulador del 13).
// Sin bibliotecas ni red: lee el JSON de `data-traza`, relativo a la página.
//
// Uso en un capítulo:
//   <div class="reproductor" id="rep-reparto" data-traza="trazas/reparto-2.json"></div>
//   <script src="reproductor/reproductor.js"></script>
//
// `?paso=N` abre el primer reproductor de la página en el paso N (el estado
// tras N eventos); `?paso=N&reproductor=ID`, el que tiene ese id.
(function () {
  "use strict";

  var MAX_FICHAS = 40; // más fichas en una cola no caben: se resumen

  function crea(etiqueta, clase, texto) {
    var e = document.createElement(etiqueta);
    if (clase) e.className = clase;
    if (texto !== undefined) e.textContent = texto;
    return e;
  }

  function ficha(valor, elemento) {
    var f = crea("span", "rep-ficha", String(valor));
    f.title = (elemento || "") + " " + valor;
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
      if (i === columnaActiva) col.classList.add("rep-activa");
      var cab = crea("h4", "rep-nombre", nombre);
      if (c.dormido) cab.appendChild(crea("span", "rep-duerme", " duerme"));
      col.appendChild(cab);
      (traza.casillas || []).forEach(function (casilla) {
        var v = c[casilla.clave];
        var fila = crea("div", "rep-casilla");
        fila.setAttribute("data-casilla", casilla.clave);
        fila.setAttribute("data-valor", v === null || v === undefined ? "" : String(v));
        fila.appendChild(crea("span", "rep-rotulo", casilla.nombre + ": "));
        if (v === null || v === undefined) fila.appendChild(crea("span", "rep-vacia", "—"));
        else fila.appendChild(ficha(v, traza.elemento));
        col.appendChild(fila);
      });
      (traza.listas || []).forEach(function (lista) {
        col.appendChild(dibujaLista(lista, c[lista.clave] || [], traza.elemento, "data-lista"));
      });
      rejilla.appendChild(col);
    });
    caja.appendChild(rejilla);
    (traza.comunes || []).forEach(function (comun) {
      var l = dibujaLista(comun, estado.comunes[comun.clave] || [], traza.elemento, "data-comun");
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

  function monta(raiz, traza, pasoInicial) {
    var total = traza.eventos.length;
    var paso = 0;
    var temporizador = null;
    raiz.textContent = "";
    raiz.setAttribute("tabindex", "0");
    raiz.setAttribute("role", "group");
    raiz.setAttribute("aria-label", "Reproductor de la traza: " + traza.titulo);

    var pantalla = crea("div", "rep-pantalla");
    pantalla.appendChild(crea("p", "rep-titulo", traza.titulo));
    if (traza.descripcion) pantalla.appendChild(crea("p", "rep-descripcion", traza.descripcion));

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
    var bInicio = boton("|◀", "Al principio", function () { para(); ir(0); });
    var bAtras = boton("◀", "Paso atrás", function () { para(); ir(paso - 1); });
    var bPlay = boton("▶ Reproducir", "Reproducir", function () { temporizador ? para() : reproduce(); });
    var bAdelante = boton("▶", "Paso adelante", function () { para(); ir(paso + 1); });
    var bFin = boton("▶|", "Al final", function () { para(); ir(total); });
    var etiquetaVelocidad = crea("label", "rep-velocidad", "Velocidad ");
    var velocidad = crea("select");
    [["2000", "lenta"], ["900", "normal"], ["350", "rápida"], ["80", "muy rápida"]].forEach(function (o, i) {
      var op = crea("option", null, o[1]);
      op.value = o[0];
      if (i === 1) op.selected = true;
      velocidad.appendChild(op);
    });
    velocidad.addEventListener("change", function () { if (temporizador) { para(); reproduce(); } });
    etiquetaVelocidad.appendChild(velocidad);
    controles.appendChild(etiquetaVelocidad);
    void bInicio; void bFin;

    var barra = crea("input", "rep-barra");
    barra.type = "range";
    barra.min = "0";
    barra.max = String(total);
    barra.step = "1";
    barra.setAttribute("aria-label", "Paso de la traza");
    barra.addEventListener("input", function () { para(); ir(parseInt(barra.value, 10)); });

    var contador = crea("p", "rep-contador");
    var texto = crea("p", "rep-texto");
    texto.setAttribute("aria-live", "polite");
    var estadoCaja = crea("div", "rep-estado");

    pantalla.appendChild(controles);
    pantalla.appendChild(barra);
    pantalla.appendChild(contador);
    pantalla.appendChild(texto);
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
      raiz.setAttribute("data-paso", String(paso));
      raiz.setAttribute("data-tipo", ev ? ev.tipo : "inicio");
      raiz.classList.toggle("rep-alerta", !!(ev && ev.alerta));
      barra.value = String(paso);
      barra.setAttribute("aria-valuetext", "paso " + paso + " de " + total);
      contador.textContent = "Paso " + paso + " de " + total;
      texto.textContent = ev ? ev.texto : "Estado inicial: aún no ha pasado nada. Avanza un paso.";
      texto.className = "rep-texto rep-tipo-" + (ev ? ev.tipo : "inicio") + (ev && ev.alerta ? " rep-texto-alerta" : "");
      dibujaEstado(estadoCaja, traza, estadoEn(traza, paso), ev ? ev.columna : null);
      bAtras.disabled = paso === 0;
      bAdelante.disabled = paso === total;
      if (!sinUrl) ponEnUrl();
    }

    function ponEnUrl() {
      if (!window.history || !window.history.replaceState) return;
      var url = new URL(window.location.href);
      url.searchParams.set("paso", String(paso));
      var primero = document.querySelector(".reproductor[data-traza]");
      if (raiz !== primero && raiz.id) url.searchParams.set("reproductor", raiz.id);
      else url.searchParams.delete("reproductor");
      window.history.replaceState(window.history.state, "", url.toString());
    }

    function reproduce() {
      if (paso >= total) ir(0);
      bPlay.textContent = "⏸ Pausa";
      bPlay.setAttribute("aria-label", "Pausa");
      temporizador = window.setInterval(function () {
        if (paso >= total) { para(); return; }
        ir(paso + 1);
      }, parseInt(velocidad.value, 10));
    }

    function para() {
      if (temporizador) window.clearInterval(temporizador);
      temporizador = null;
      bPlay.textContent = "▶ Reproducir";
      bPlay.setAttribute("aria-label", "Reproducir");
    }

    raiz.addEventListener("keydown", function (ev) {
      if (ev.target && ev.target.tagName === "SELECT") return;
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

  function arranca() {
    var raices = Array.prototype.slice.call(document.querySelectorAll(".reproductor[data-traza]"));
    var p = parametros();
    raices.forEach(function (raiz, i) {
      if (raiz.getAttribute("data-montado")) return;
      raiz.setAttribute("data-montado", "1");
      var elegido = p.reproductor ? raiz.id === p.reproductor : i === 0;
      var inicial = elegido && p.paso !== null ? parseInt(p.paso, 10) : 0;
      var url = new URL(raiz.getAttribute("data-traza"), document.baseURI);
      fetch(url.toString())
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (traza) {
          monta(raiz, traza, inicial);
          raiz.setAttribute("data-listo", "1");
        })
        .catch(function (e) {
          raiz.setAttribute("data-error", String(e));
          var aviso = crea("p", "rep-fallo", "No se pudo cargar la traza " + raiz.getAttribute("data-traza") +
            " (" + e.message + "). Si abriste el libro como archivo, sírvelo con `cargo libro`.");
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
