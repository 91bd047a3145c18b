'use strict';

// Los diagramas Mermaid se encogen hasta el ancho de la columna. En una
// pantalla estrecha (un móvil), uno ancho quedaría con letra ilegible: aquí
// se les pone un ancho mínimo, 11/16 del natural (su texto de 16 unidades
// queda en 11 px), y la caja del diagrama se desplaza en horizontal
// (curso.css). En un escritorio no cambia nada: los diagramas del libro
// caben en la columna a ese tamaño.
(function diagramas() {
    const FRACCION_MINIMA = 11 / 16;

    function ajustar(pre) {
        const svg = pre.querySelector('svg');
        if (!svg || svg.dataset.anchoMinimo) {
            return;
        }
        const natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
        if (natural > 0) {
            svg.style.minWidth = Math.ceil(natural * FRACCION_MINIMA) + 'px';
            svg.dataset.anchoMinimo = 'si';
        }
    }

    for (const pre of document.querySelectorAll('pre.mermaid')) {
        ajustar(pre);
        new MutationObserver(() => ajustar(pre)).observe(pre, {childList: true});
    }
})();
