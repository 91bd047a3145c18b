'use strict';

// Las figuras del libro en cualquier pantalla (curso/tema/LEEME.md):
//
// - Mermaid se carga solo en las páginas que tienen diagramas: la plantilla
//   deja sus guiones como <script type="text/plain" class="guion-perezoso">
//   y aquí se cargan, en orden, antes de que termine de cargar la página
//   (así `startOnLoad` de mermaid-init.js los dibuja igual que siempre).
// - Ningún texto de una figura baja de 11 px en pantalla. Un diagrama
//   Mermaid recibe un ancho mínimo que deja su letra más pequeña en 11 px;
//   una gráfica de `book/graficas/` (el crate `graficas` la dibuja para que
//   su texto mida 11 px o más a 750 px de ancho), un ancho mínimo de 750 px.
//   En un escritorio no cambia nada; en un móvil, la figura se desplaza en
//   horizontal dentro de su caja, que enseña «desliza →» encima.
// - Todo lo que se desplaza se alcanza con el teclado (tabindex="0"): las
//   figuras y los bloques de código y las tablas que no caben.
(function figuras() {
    const PX_MINIMOS = 11;
    // El ancho al que las gráficas de book/graficas/ tienen su texto a 11 px
    // o más (graficas::COLUMNA_PX).
    const ANCHO_DE_LAS_GRAFICAS = 750;

    // 1. Mermaid, solo si hay diagramas.
    function cargarPerezosos(nombres) {
        for (const guion of document.querySelectorAll('script.guion-perezoso')) {
            if (!nombres.some(n => guion.dataset.nombre.endsWith(n)) || guion.dataset.cargado) {
                continue;
            }
            guion.dataset.cargado = 'si';
            const nuevo = document.createElement('script');
            nuevo.src = guion.dataset.src;
            // Los insertados a mano se ejecutan en orden solo con async = false.
            nuevo.async = false;
            guion.after(nuevo);
        }
    }
    if (document.querySelector('pre.mermaid')) {
        cargarPerezosos(['mermaid.min.js', 'mermaid-init.js']);
    }
    window.cursoCargarGuiones = cargarPerezosos;

    // 2. El aviso «desliza →», delante de la caja que se desplaza.
    function aviso(caja) {
        let a = caja.previousElementSibling;
        if (!a || !a.classList.contains('desliza')) {
            a = document.createElement('p');
            a.className = 'desliza';
            a.setAttribute('aria-hidden', 'true');
            a.textContent = 'desliza →';
            caja.before(a);
        }
        return a;
    }

    /** Marca si `caja` se desplaza: aviso visible (en las figuras) y foco con el teclado. */
    function revisar(caja) {
        const desborda = caja.scrollWidth > caja.clientWidth + 1;
        caja.classList.toggle('desborda', desborda);
        if (caja.matches('pre.mermaid, .figura-desplazable')) {
            aviso(caja).classList.toggle('visible', desborda);
        }
        if (desborda && !caja.hasAttribute('tabindex')) {
            caja.setAttribute('tabindex', '0');
            caja.dataset.focoPuesto = 'si';
        } else if (!desborda && caja.dataset.focoPuesto) {
            caja.removeAttribute('tabindex');
            delete caja.dataset.focoPuesto;
        }
    }

    // 3. Los diagramas: el ancho mínimo sale de su letra más pequeña.
    function ajustarDiagrama(pre) {
        const svg = pre.querySelector('svg');
        if (!svg || svg.dataset.anchoMinimo) {
            return;
        }
        const natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
        const ancho = svg.getBoundingClientRect().width;
        if (!(natural > 0) || !(ancho > 0)) {
            return;
        }
        // Tamaño de cada texto en unidades del SVG (sin la escala del viewBox).
        const raiz = ancho / natural;
        let menor = Infinity;
        for (const el of svg.querySelectorAll('text, tspan, foreignObject *')) {
            if (!el.firstChild || el.firstChild.nodeType !== 3 || !el.textContent.trim()) {
                continue;
            }
            const m = (el.closest('foreignObject') || el).getScreenCTM();
            if (!m) {
                continue;
            }
            const unidades = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b) / raiz;
            if (unidades > 0 && unidades < menor) {
                menor = unidades;
            }
        }
        if (!isFinite(menor)) {
            menor = 16;
        }
        svg.style.minWidth = Math.ceil(natural * PX_MINIMOS / menor) + 'px';
        svg.dataset.anchoMinimo = 'si';
        pre.setAttribute('role', 'group');
        pre.setAttribute('aria-label', 'Diagrama');
        revisar(pre);
    }

    for (const pre of document.querySelectorAll('pre.mermaid')) {
        new MutationObserver(() => ajustarDiagrama(pre)).observe(pre, {childList: true});
    }

    // 4. Las gráficas: dentro de una caja que se desplaza.
    for (const img of document.querySelectorAll('main img')) {
        let ruta = '';
        try {
            ruta = new URL(img.src).pathname;
        } catch {
            continue;
        }
        if (!/\/graficas\/[^/]+\.svg$/.test(ruta) || img.closest('.img-wrapper')) {
            continue;
        }
        // mdBook envuelve la imagen en una <label> que la amplía al tocarla.
        const pieza = img.closest('label.checkbox-label') || img;
        const caja = document.createElement('div');
        caja.className = 'figura-desplazable';
        caja.setAttribute('role', 'group');
        caja.setAttribute('aria-label', 'Gráfica');
        img.classList.add('grafica');
        img.style.minWidth = ANCHO_DE_LAS_GRAFICAS + 'px';
        const ampliada = pieza.querySelector('.img-wrapper img');
        if (ampliada) {
            ampliada.classList.add('grafica-ampliada');
        }
        // El <p> que solo lleva la figura entra entero en la caja.
        const padre = pieza.parentElement;
        const bloque = padre && padre.tagName === 'P' && padre.childNodes.length === 1 ? padre : pieza;
        bloque.before(caja);
        caja.append(bloque);
        img.addEventListener('load', () => revisar(caja));
    }

    // 5. Todo lo que se desplaza, revisado al cargar y al cambiar de ancho.
    const CAJAS = 'pre.mermaid, .figura-desplazable, pre > code, .table-wrapper';
    function revisarTodo() {
        for (const caja of document.querySelectorAll(CAJAS)) {
            if (!caja.matches('pre.mermaid') || caja.querySelector('svg[data-ancho-minimo]')) {
                revisar(caja);
            }
        }
    }
    let pendiente = null;
    window.addEventListener('resize', () => {
        window.clearTimeout(pendiente);
        pendiente = window.setTimeout(revisarTodo, 150);
    });
    if (document.readyState === 'complete') {
        revisarTodo();
    } else {
        window.addEventListener('load', revisarTodo);
    }
    // book.js envuelve el código después; las fuentes pueden cambiar anchos.
    document.addEventListener('DOMContentLoaded', revisarTodo);
    if (document.fonts && document.fonts.ready) {
        document.fonts.ready.then(revisarTodo);
    }
})();
