'use strict';

// La búsqueda del libro, pensada para quien lee en español. Sustituye a
// `searcher.js` de mdbook 0.5.4 (MPL-2.0; la estructura de este archivo, los
// atajos de teclado y el manejo de la URL vienen de allí): la plantilla
// `curso/tema/index.hbs` no lo carga y carga este, vía `additional-js`.
//
// mdbook escribe `searchindex.js` con un índice de elasticlunr pensado para
// inglés (raíces inglesas, distingue tildes). De ese archivo solo se usan los
// textos de cada sección (`documentStore`): con ellos se monta aquí, al
// abrir la búsqueda, un índice propio en el que el texto y la consulta pasan
// por la misma normalización (`terminos`):
//   - sin palabras vacías («de», «del», «la», «que»...): ni cuentan ni se
//     resaltan;
//   - cada palabra, reducida a su raíz con el algoritmo de Snowball para el
//     español (`raices-es.js`, del paquete @orama/stemmers; no se escribe a
//     mano): «planificación», «planificador» y «planifica» dan «planif»;
//     después, sin tildes y sin la vocal final que Snowball deja a veces
//     («tarea» → «tare» → «tar», como «tareas»);
//   - Snowball necesita las tildes («-ción»). Quien busca sin ellas
//     («planificacion») recibe la raíz de la palabra del libro que se
//     escribe igual salvo las tildes;
//   - una raíz de la consulta encuentra también, con menos peso, las que
//     empiezan por ella («planif» → «planific», de «planificar») y las que
//     son un poco más cortas que ella («planific» → «planif»).
// Puntúa más el título de la sección que su texto, y el del capítulo (la
// primera sección de cada página) el doble que el de una sección: la página
// que trata de una palabra sale antes que las que la nombran. Dos palabras
// de la consulta seguidas en el texto («hilo verde») suman un poco más.
// Funciona igual con `mdbook build` que con `cargo libro`, y abriendo el
// libro desde sus archivos: todo ocurre en el navegador, con guiones
// cargados con <script>.

/* global Mark, path_to_root */

window.search = window.search || {};
(function buscador(search) {
    if (typeof Mark === 'undefined') {
        return;
    }

    // Palabras vacías del español (sin tildes: se comparan ya plegadas).
    const PARADAS = new Set((
        'a al algo algun alguna algunas alguno algunos ante antes aqui asi aun aunque cada casi como con contra '
        + 'cual cuales cuando de del desde donde dos el ella ellas ellos en entre era eran es esa esas ese eso '
        + 'esos esta estan estas este esto estos fue fueron ha han has hay hasta la las le les lo los mas me '
        + 'mi mientras mis mucho muy nada ni no nos o os otra otras otro otros para pero poco por porque que '
        + 'quien se sea segun ser si sin sobre solo son su sus tambien tan tanto te tiene tienen toda todas '
        + 'todo todos tu tus un una unas uno unos usted y ya yo'
    ).split(' '));

    /** Minúsculas y sin tildes ni diéresis («Planificación» → «planificacion»; «ñ» → «n»). */
    function plegar(texto) {
        return texto.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    }

    const PALABRA = /[\p{L}\p{N}_]+/gu;

    // La raíz de Snowball de cada palabra (en minúsculas, con sus tildes),
    // plegada y sin vocal final. `raizEspanola` la deja raices-es.js.
    const raices = new Map();
    function raiz(palabra) {
        let r = raices.get(palabra);
        if (r === undefined) {
            r = plegar(window.raizEspanola ? window.raizEspanola(palabra) : palabra);
            if (r.length >= 4 && /[aeo]$/.test(r)) {
                r = r.slice(0, -1);
            }
            if (window.raizEspanola) {
                raices.set(palabra, r);
            }
        }
        return r;
    }

    // Palabra del libro, plegada → su raíz (la de la palabra con tildes).
    const delLibro = new Map();

    /**
     * Los términos de un texto: raíces, sin palabras vacías. Con `aprender`,
     * el texto es del libro y sus palabras quedan en `delLibro`; si no, es
     * una consulta y cada palabra plegada que está en el libro toma su raíz.
     */
    function terminos(texto, aprender) {
        const salida = [];
        for (const palabra of texto.toLowerCase().match(PALABRA) || []) {
            const plegada = plegar(palabra);
            if (PARADAS.has(plegada) || palabra.length > 80) {
                continue;
            }
            if (aprender) {
                const r = raiz(palabra);
                if (plegada !== palabra || !delLibro.has(plegada)) {
                    delLibro.set(plegada, r);
                }
                salida.push(r);
            } else {
                salida.push(delLibro.get(plegada) || raiz(palabra));
            }
        }
        return salida;
    }

    /** ¿Corresponde el término `t` del texto a alguno de la consulta? */
    function coincide(t, consulta) {
        return consulta.some(q => t === q || q.length >= 3 && t.startsWith(q) || esRaizCorta(t, q));
    }

    /** `t` es una raíz del libro un poco más corta que la de la consulta `q` («planif», «planific»). */
    function esRaizCorta(t, q) {
        return t.length >= 5 && t.length < q.length && q.length - t.length <= 3 && q.startsWith(t);
    }

    // Exportadas para las pruebas del navegador.
    search.terminos = texto => terminos(texto, false);
    search.raiz = raiz;

    const search_wrap = document.getElementById('mdbook-search-wrapper'),
        searchbar_outer = document.getElementById('mdbook-searchbar-outer'),
        searchbar = document.getElementById('mdbook-searchbar'),
        searchresults = document.getElementById('mdbook-searchresults'),
        searchresults_outer = document.getElementById('mdbook-searchresults-outer'),
        searchresults_header = document.getElementById('mdbook-searchresults-header'),
        searchicon = document.getElementById('mdbook-search-toggle'),
        content = document.getElementById('mdbook-content'),

        // El texto de los SVG no se dibuja dentro de <mark>.
        mark_exclude = ['text'],
        marker = new Mark(content),
        URL_SEARCH_PARAM = 'search',
        URL_MARK_PARAM = 'highlight';

    if (!search_wrap || !searchbar) {
        return;
    }

    // Pesos de cada campo: el título de la sección pesa más que el texto, y
    // el del capítulo (la primera sección de la página), el doble.
    const CAMPOS = {title: 3, breadcrumbs: 1, body: 1};
    const PESO_TITULO_DEL_CAPITULO = 6;
    // Una coincidencia por prefijo cuenta menos que la raíz exacta.
    const PESO_PREFIJO = 0.5;
    // Dos palabras de la consulta, seguidas en el texto.
    const PESO_PAREJA = 0.5;
    // Los registros del final repiten los títulos de los capítulos: a
    // igualdad, que salga antes el capítulo que lo explica.
    const PESO_DE_PAGINA = {'mediciones.html': 0.6, 'referencias.html': 0.6};

    let current_searchterm = '',
        doc_urls = [],
        results_options = {
            teaser_word_count: 30,
            limit_results: 30,
        },
        indice = null,
        teaser_count = 0;
    // Quien espera a que llegue raices-es.js (cargarRaices).
    const esperandoRaices = [];

    /** Las parejas de raíces seguidas («hil verd»), que se indexan como un término más. */
    function parejas(ts) {
        const salida = [];
        for (let i = 1; i < ts.length; i++) {
            salida.push(ts[i - 1] + ' ' + ts[i]);
        }
        return salida;
    }

    /** El índice invertido, montado con los textos que guarda `searchindex.js`. */
    function montarIndice(config) {
        const docs = config.index.documentStore.docs;
        const documentos = [];
        const invertido = new Map(); // término → [[documento, puntos del término]]
        const paginasVistas = new Set();
        for (const ref of Object.keys(docs)) {
            const doc = docs[ref];
            const pagina = (config.doc_urls[ref] || '').split('#')[0];
            const primera = !paginasVistas.has(pagina);
            paginasVistas.add(pagina);
            const puntos = new Map();
            for (const campo of Object.keys(CAMPOS)) {
                const ts = terminos(doc[campo] || '', true);
                if (ts.length === 0) {
                    continue;
                }
                const cuenta = new Map();
                for (const t of ts.concat(parejas(ts))) {
                    cuenta.set(t, (cuenta.get(t) || 0) + 1);
                }
                const peso = campo === 'title' && primera ? PESO_TITULO_DEL_CAPITULO : CAMPOS[campo];
                // Como elasticlunr: raíz de la frecuencia, normalizada por la longitud del campo.
                const norma = 1 / Math.sqrt(ts.length);
                for (const [t, c] of cuenta) {
                    puntos.set(t, (puntos.get(t) || 0) + peso * Math.sqrt(c) * norma);
                }
            }
            const factor = PESO_DE_PAGINA[pagina] || 1;
            const numero = documentos.length;
            documentos.push({ref: ref, doc: doc});
            for (const [t, p] of puntos) {
                if (!invertido.has(t)) {
                    invertido.set(t, []);
                }
                invertido.get(t).push([numero, p * factor]);
            }
        }
        const vocabulario = [...invertido.keys()].filter(t => !t.includes(' ')).sort();
        return {documentos, invertido, vocabulario};
    }

    /** Los términos del vocabulario que empiezan por `q` (búsqueda binaria). */
    function conPrefijo(q) {
        const v = indice.vocabulario;
        let bajo = 0, alto = v.length;
        while (bajo < alto) {
            const medio = (bajo + alto) >> 1;
            if (v[medio] < q) {
                bajo = medio + 1;
            } else {
                alto = medio;
            }
        }
        const salida = [];
        for (let i = bajo; i < v.length && v[i].startsWith(q); i++) {
            salida.push(v[i]);
        }
        return salida;
    }

    /**
     * Busca: primero las secciones que contienen todos los términos de la
     * consulta; después, las que contienen menos. Dentro de cada grupo, por
     * puntos (frecuencia, campo y rareza del término).
     */
    function buscar(consulta) {
        const enOrden = terminos(consulta, false);
        const qs = [...new Set(enOrden)];
        if (qs.length === 0) {
            return [];
        }
        const n = indice.documentos.length;
        const acumulado = new Map(); // documento → {terminos, puntos}
        const sumar = (lista, peso, mejor) => {
            const idf = 1 + Math.log(n / (lista.length + 1));
            for (const [d, p] of lista) {
                const puntos = p * idf * peso;
                if (puntos > (mejor.get(d) || 0)) {
                    mejor.set(d, puntos);
                }
            }
        };
        for (const q of qs) {
            const candidatos = new Map();
            if (indice.invertido.has(q)) {
                candidatos.set(q, 1);
            }
            if (q.length >= 3) {
                for (const t of conPrefijo(q)) {
                    if (!candidatos.has(t)) {
                        candidatos.set(t, PESO_PREFIJO);
                    }
                }
            }
            for (let largo = q.length - 1; largo >= Math.max(5, q.length - 3); largo--) {
                const t = q.slice(0, largo);
                if (indice.invertido.has(t) && !candidatos.has(t)) {
                    candidatos.set(t, PESO_PREFIJO);
                }
            }
            const mejor = new Map();
            for (const [t, peso] of candidatos) {
                sumar(indice.invertido.get(t), peso, mejor);
            }
            for (const [d, puntos] of mejor) {
                const a = acumulado.get(d) || {terminos: 0, puntos: 0};
                a.terminos += 1;
                a.puntos += puntos;
                acumulado.set(d, a);
            }
        }
        // Las palabras de la consulta seguidas, también seguidas en el texto.
        for (const pareja of new Set(parejas(enOrden))) {
            const lista = indice.invertido.get(pareja);
            if (!lista) {
                continue;
            }
            const mejor = new Map();
            sumar(lista, PESO_PAREJA, mejor);
            for (const [d, puntos] of mejor) {
                const a = acumulado.get(d);
                if (a) {
                    a.puntos += puntos;
                }
            }
        }
        return [...acumulado.entries()]
            .sort((x, y) => y[1].terminos - x[1].terminos || y[1].puntos - x[1].puntos || x[0] - y[0])
            .map(([d, a]) => ({ref: indice.documentos[d].ref, doc: indice.documentos[d].doc, score: a.puntos}));
    }

    function hasFocus() {
        return searchbar === document.activeElement;
    }

    function removeChildren(elem) {
        while (elem.firstChild) {
            elem.removeChild(elem.firstChild);
        }
    }

    // Descompone una URL en sus partes.
    function parseURL(url) {
        const a = document.createElement('a');
        a.href = url;
        return {
            source: url,
            protocol: a.protocol.replace(':', ''),
            host: a.hostname,
            port: a.port,
            params: (function() {
                const ret = {};
                const seg = a.search.replace(/^\?/, '').split('&');
                for (const part of seg) {
                    if (!part) {
                        continue;
                    }
                    const s = part.split('=');
                    ret[s[0]] = s[1];
                }
                return ret;
            })(),
            file: (a.pathname.match(/\/([^/?#]+)$/i) || ['', ''])[1],
            hash: a.hash.replace('#', ''),
            path: a.pathname.replace(/^([^/])/, '/$1'),
        };
    }

    // Vuelve a montar la URL a partir de sus partes.
    function renderURL(urlobject) {
        let url = urlobject.protocol + '://' + urlobject.host;
        if (urlobject.port !== '') {
            url += ':' + urlobject.port;
        }
        url += urlobject.path;
        let joiner = '?';
        for (const prop in urlobject.params) {
            if (Object.prototype.hasOwnProperty.call(urlobject.params, prop)) {
                url += joiner + prop + '=' + urlobject.params[prop];
                joiner = '&';
            }
        }
        if (urlobject.hash !== '') {
            url += '#' + urlobject.hash;
        }
        return url;
    }

    const escapeHTML = (function() {
        const MAP = {
            '&': '&amp;',
            '<': '&lt;',
            '>': '&gt;',
            '"': '&#34;',
            '\'': '&#39;',
        };
        const repl = function(c) {
            return MAP[c];
        };
        return function(s) {
            return s.replace(/[&<>'"]/g, repl);
        };
    })();

    function formatSearchMetric(count, searchterm) {
        if (count === 1) {
            return '1 resultado para «' + searchterm + '»:';
        } else if (count === 0 && terminos(searchterm).length === 0) {
            return 'La búsqueda no tiene en cuenta palabras tan comunes como «' + searchterm
                + '»: no encuentra nada con ellas solas. Añade otra palabra.';
        } else if (count === 0) {
            return 'Ningún resultado para «' + searchterm + '». Prueba con menos palabras o con otra forma de la palabra.';
        } else {
            return count + ' resultados para «' + searchterm + '»:';
        }
    }

    function formatSearchResult(result, consulta, palabras) {
        const teaser = makeTeaser(escapeHTML(result.doc.body), consulta);
        teaser_count++;

        // ?highlight= va entre la página y el #ancla.
        const url = doc_urls[result.ref].split('#');
        if (url.length === 1) {
            url.push('');
        }
        const encoded_search = encodeURIComponent(palabras.join(' ')).replace(/'/g, '%27');

        return '<a href="' + path_to_root + url[0] + '?' + URL_MARK_PARAM + '=' + encoded_search
            + '#' + url[1] + '" aria-details="mdbook-teaser_' + teaser_count + '">'
            + result.doc.breadcrumbs + '</a>'
            + '<span class="teaser" id="mdbook-teaser_' + teaser_count
            + '" aria-label="Extracto del resultado">' + teaser + '</span>';
    }

    /** ¿Es `palabra` (un trozo del texto) una de las buscadas? */
    function esBuscada(palabra, consulta) {
        return terminos(palabra).some(t => coincide(t, consulta));
    }

    // Como en searcher.js: la ventana de `teaser_word_count` palabras con más
    // coincidencias, con las coincidencias en <em>.
    function makeTeaser(body, consulta) {
        const searchterm_weight = 40;
        const weighted = []; // [palabra, peso, posición]
        const sentences = body.split('. ');
        let index = 0;
        let value = 0;
        let searchterm_found = false;
        for (const sentence of sentences) {
            const words = sentence.split(/[ \u00a0\n\t]/);
            value = 8;
            for (const word of words) {
                if (word.length > 0) {
                    if (esBuscada(word, consulta)) {
                        value = searchterm_weight;
                        searchterm_found = true;
                    }
                    weighted.push([word, value, index]);
                    value = 2;
                }
                index += word.length + 1;
            }
            index += 1;
        }
        if (weighted.length === 0) {
            return body;
        }
        const window_weight = [];
        const window_size = Math.min(weighted.length, results_options.teaser_word_count);
        let cur_sum = 0;
        for (let i = 0; i < window_size; i++) {
            cur_sum += weighted[i][1];
        }
        window_weight.push(cur_sum);
        for (let i = 0; i < weighted.length - window_size; i++) {
            cur_sum -= weighted[i][1];
            cur_sum += weighted[i + window_size][1];
            window_weight.push(cur_sum);
        }
        let max_sum_window_index = 0;
        if (searchterm_found) {
            let max_sum = 0;
            for (let i = window_weight.length - 1; i >= 0; i--) {
                if (window_weight[i] > max_sum) {
                    max_sum = window_weight[i];
                    max_sum_window_index = i;
                }
            }
        }
        const teaser_split = [];
        index = weighted[max_sum_window_index][2];
        for (let i = max_sum_window_index; i < max_sum_window_index + window_size; i++) {
            const word = weighted[i];
            if (index < word[2]) {
                teaser_split.push(body.substring(index, word[2]));
                index = word[2];
            }
            if (word[1] === searchterm_weight) {
                teaser_split.push('<em>');
            }
            index = word[2] + word[0].length;
            teaser_split.push(body.substring(word[2], index));
            if (word[1] === searchterm_weight) {
                teaser_split.push('</em>');
            }
        }
        return teaser_split.join('');
    }

    function init(config) {
        results_options = config.results_options || results_options;
        doc_urls = config.doc_urls;
        indice = montarIndice(config);

        searchbar_outer.classList.remove('searching');
        searchbar.focus();

        const searchterm = searchbar.value.trim();
        if (searchterm !== '') {
            searchbar.classList.add('active');
            doSearch(searchterm);
        }
    }

    function initSearchInteractions(config) {
        searchicon.addEventListener('click', () => {
            searchIconClickHandler();
        }, false);
        searchbar.addEventListener('keyup', () => {
            searchbarKeyUpHandler();
        }, false);
        document.addEventListener('keydown', e => {
            globalKeyHandler(e);
        }, false);
        window.onpopstate = () => {
            doSearchOrMarkFromUrl();
        };
        // Enter no recarga la página.
        document.addEventListener('submit', e => {
            e.preventDefault();
        }, false);

        doSearchOrMarkFromUrl();

        config.hasFocus = hasFocus;
    }

    initSearchInteractions(search);

    function unfocusSearchbar() {
        const tmp = document.createElement('input');
        tmp.setAttribute('style', 'position: absolute; opacity: 0;');
        searchicon.appendChild(tmp);
        tmp.focus();
        tmp.remove();
    }

    /**
     * Resalta en la página las palabras de la consulta, con la misma regla
     * que la búsqueda (y las palabras de esta página como vocabulario).
     * Después llama a `hecho`.
     */
    function resaltar(palabras, hecho) {
        cargarRaices(() => {
            terminos(content.textContent, true);
            const consulta = terminos(palabras.join(' '));
            if (consulta.length > 0) {
                marker.markRegExp(new RegExp(PALABRA.source, 'gu'), {
                    exclude: mark_exclude,
                    filter: (_nodo, palabra) => esBuscada(palabra, consulta),
                });
            }
            hecho();
        });
    }

    function doSearchOrMarkFromUrl() {
        const url = parseURL(window.location.href);
        if (Object.prototype.hasOwnProperty.call(url.params, URL_SEARCH_PARAM)
            && url.params[URL_SEARCH_PARAM] !== '') {
            showSearch(true);
            searchbar.value = decodeURIComponent(
                (url.params[URL_SEARCH_PARAM] + '').replace(/\+/g, '%20'));
            searchbarKeyUpHandler();
        } else {
            showSearch(false);
        }

        if (Object.prototype.hasOwnProperty.call(url.params, URL_MARK_PARAM)) {
            resaltar(decodeURIComponent(url.params[URL_MARK_PARAM]).split(' '), () => {
                const markers = document.querySelectorAll('mark');
                const hide = () => {
                    for (let i = 0; i < markers.length; i++) {
                        markers[i].classList.add('fade-out');
                        window.setTimeout(() => {
                            marker.unmark();
                        }, 300);
                    }
                    setSearchUrlParameters('', 'replace');
                };
                for (let i = 0; i < markers.length; i++) {
                    markers[i].addEventListener('click', hide);
                }
            });
        }
    }

    function globalKeyHandler(e) {
        if (e.altKey ||
            e.ctrlKey ||
            e.metaKey ||
            e.shiftKey ||
            e.target.type === 'textarea' ||
            e.target.type === 'text' ||
            !hasFocus() && mdbook_something_else_has_focus(e)
        ) {
            return;
        }

        if (e.key === 'Escape') {
            e.preventDefault();
            searchbar.classList.remove('active');
            setSearchUrlParameters('',
                searchbar.value.trim() !== '' ? 'push' : 'replace');
            if (hasFocus()) {
                unfocusSearchbar();
            }
            showSearch(false);
            marker.unmark();
        } else if (!hasFocus() && (e.key === 's' || e.key === '/')) {
            e.preventDefault();
            showSearch(true);
            window.scrollTo(0, 0);
            searchbar.select();
        } else if (hasFocus() && (e.key === 'ArrowDown'
                               || e.key === 'Enter')) {
            e.preventDefault();
            const first = searchresults.firstElementChild;
            if (first !== null) {
                unfocusSearchbar();
                first.classList.add('focus');
                if (e.key === 'Enter') {
                    window.location.assign(first.querySelector('a'));
                }
            }
        } else if (!hasFocus() && (e.key === 'ArrowDown'
                                || e.key === 'ArrowUp'
                                || e.key === 'Enter')) {
            const focused = searchresults.querySelector('li.focus');
            if (!focused) {
                return;
            }
            e.preventDefault();
            if (e.key === 'ArrowDown') {
                const next = focused.nextElementSibling;
                if (next) {
                    focused.classList.remove('focus');
                    next.classList.add('focus');
                }
            } else if (e.key === 'ArrowUp') {
                focused.classList.remove('focus');
                const prev = focused.previousElementSibling;
                if (prev) {
                    prev.classList.add('focus');
                } else {
                    searchbar.select();
                }
            } else {
                window.location.assign(focused.querySelector('a'));
            }
        }
    }

    /** Carga un guion (con <script>: vale también en file://) y llama a `listo`. */
    function cargarGuion(url, id, listo) {
        const script = document.createElement('script');
        script.src = url;
        script.id = id;
        script.onload = listo;
        script.onerror = error => {
            console.error(`No se pudo cargar \`${url}\`: ${error}`);
        };
        document.head.append(script);
    }

    /**
     * La raíz española (raices-es.js) llega al abrir la búsqueda o al
     * resaltar: la plantilla la deja como guion perezoso. Llama a `listo`
     * cuando está.
     */
    function cargarRaices(listo) {
        if (window.raizEspanola) {
            listo();
            return;
        }
        esperandoRaices.push(listo);
        if (esperandoRaices.length === 1) {
            pedirRaices();
        }
    }

    function pedirRaices() {
        const perezoso = document.querySelector('script.guion-perezoso[data-nombre$="raices-es.js"]');
        if (!perezoso && document.readyState === 'loading') {
            // La plantilla aún no ha llegado a él: se vuelve a mirar al acabar.
            document.addEventListener('DOMContentLoaded', pedirRaices);
            return;
        }
        const avisar = () => {
            for (const f of esperandoRaices.splice(0)) {
                f();
            }
        };
        if (!perezoso) {
            console.error('Falta raices-es.js en la página: la búsqueda no reduce las palabras a su raíz');
            avisar();
            return;
        }
        cargarGuion(perezoso.dataset.src, 'curso-raices-es', avisar);
    }

    function loadSearchScript(url, id) {
        if (document.getElementById(id)) {
            return;
        }
        searchbar_outer.classList.add('searching');
        // Primero la raíz española: el índice se monta con ella.
        const script = document.createElement('span');
        script.id = id;
        document.head.append(script);
        cargarRaices(() => cargarGuion(url, id + '-datos', () => init(search)));
    }

    function showSearch(yes) {
        if (yes) {
            loadSearchScript(window.path_to_searchindex_js, 'mdbook-search-index');
            search_wrap.classList.remove('hidden');
            searchicon.setAttribute('aria-expanded', 'true');
        } else {
            search_wrap.classList.add('hidden');
            searchicon.setAttribute('aria-expanded', 'false');
            const results = searchresults.children;
            for (let i = 0; i < results.length; i++) {
                results[i].classList.remove('focus');
            }
        }
    }

    function showResults(yes) {
        if (yes) {
            searchresults_outer.classList.remove('hidden');
        } else {
            searchresults_outer.classList.add('hidden');
        }
    }

    function searchIconClickHandler() {
        if (search_wrap.classList.contains('hidden')) {
            showSearch(true);
            window.scrollTo(0, 0);
            searchbar.select();
        } else {
            showSearch(false);
        }
    }

    function searchbarKeyUpHandler() {
        const searchterm = searchbar.value.trim();
        if (searchterm !== '') {
            searchbar.classList.add('active');
            doSearch(searchterm);
        } else {
            searchbar.classList.remove('active');
            showResults(false);
            removeChildren(searchresults);
        }

        setSearchUrlParameters(searchterm, 'push_if_new_search_else_replace');
        marker.unmark();
    }

    // Pone ?search= en la URL (y quita ?highlight= y el #ancla); `action` es
    // "push", "replace" o "push_if_new_search_else_replace".
    function setSearchUrlParameters(searchterm, action) {
        const url = parseURL(window.location.href);
        const first_search = !Object.prototype.hasOwnProperty.call(url.params, URL_SEARCH_PARAM);

        if (searchterm !== '' || action === 'push_if_new_search_else_replace') {
            url.params[URL_SEARCH_PARAM] = searchterm;
            delete url.params[URL_MARK_PARAM];
            url.hash = '';
        } else {
            delete url.params[URL_MARK_PARAM];
            delete url.params[URL_SEARCH_PARAM];
        }
        if (action === 'push' || action === 'push_if_new_search_else_replace' && first_search ) {
            history.pushState({}, document.title, renderURL(url));
        } else if (action === 'replace' ||
            action === 'push_if_new_search_else_replace' &&
            !first_search
        ) {
            history.replaceState({}, document.title, renderURL(url));
        }
    }

    function doSearch(searchterm) {
        if (current_searchterm === searchterm) {
            return;
        }
        searchbar_outer.classList.add('searching');
        if (indice === null) {
            return;
        }
        current_searchterm = searchterm;

        const results = buscar(searchterm);
        const resultcount = Math.min(results.length, results_options.limit_results);
        searchresults_header.innerText = formatSearchMetric(resultcount, searchterm);

        const consulta = terminos(searchterm);
        // Para resaltar en la página de destino: las palabras, sin las vacías.
        const palabras = searchterm.split(/\s+/).filter(p => terminos(p).length > 0);
        removeChildren(searchresults);
        for (let i = 0; i < resultcount; i++) {
            const resultElem = document.createElement('li');
            resultElem.innerHTML = formatSearchResult(results[i], consulta, palabras);
            searchresults.appendChild(resultElem);
        }
        showResults(true);
        searchbar_outer.classList.remove('searching');
    }

    search.hasFocus = hasFocus;
})(window.search);
