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
// por la misma función, `terminos`:
//   - sin tildes ni mayúsculas: «planificacion» encuentra «planificación»;
//   - sin palabras vacías («de», «del», «la», «que»...): ni cuentan ni se
//     resaltan;
//   - reducidas a una raíz ligera (plurales y género: «tareas» y «tarea»
//     dan «tare») y, además, por prefijo: «planifica» encuentra
//     «planificador» y «planificación».
// Funciona igual con `mdbook build` que con `cargo libro`: todo ocurre en el
// navegador.

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

    /**
     * Una raíz ligera para el español (en la línea del «light stemmer» de
     * J. Savoy): quita el plural, la -n del plural de los verbos y la vocal
     * final («tareas», «tarea» → «tare»; «ceden», «cede» → «ced»). Las
     * palabras de menos de 4 letras quedan igual. Recibe la palabra plegada.
     */
    function raiz(p) {
        if (p.length < 4) {
            return p;
        }
        if (p.endsWith('ces') && p.length >= 5) {
            return p.slice(0, -3) + 'z'; // veces → vez
        }
        if (p.endsWith('s')) {
            p = p.slice(0, -1); // tareas → tarea, colas → cola, futures → future
        } else if (p.length >= 5 && (p.endsWith('an') || p.endsWith('en'))) {
            p = p.slice(0, -1); // ceden → cede, bloquean → bloquea
        }
        if (p.length >= 4 && /[aeo]$/.test(p)) {
            p = p.slice(0, -1); // tarea → tare, hilo → hil, cede → ced
        }
        return p;
    }

    const PALABRA = /[\p{L}\p{N}_]+/gu;

    /** Los términos de un texto: palabras plegadas, sin vacías, reducidas a su raíz. */
    function terminos(texto) {
        const salida = [];
        for (const palabra of plegar(texto).match(PALABRA) || []) {
            if (!PARADAS.has(palabra) && palabra.length <= 80) {
                salida.push(raiz(palabra));
            }
        }
        return salida;
    }

    /** ¿Corresponde el término `t` del texto a alguno de la consulta? */
    function coincide(t, consulta) {
        return consulta.some(q => t === q || q.length >= 3 && t.startsWith(q));
    }

    // Exportada para las pruebas del navegador.
    search.terminos = terminos;

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

    // Pesos de cada campo: el título de la sección pesa más que el texto.
    const CAMPOS = {title: 3, breadcrumbs: 1, body: 1};
    // Una coincidencia por prefijo cuenta menos que la palabra exacta.
    const PESO_PREFIJO = 0.5;
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

    /** El índice invertido, montado con los textos que guarda `searchindex.js`. */
    function montarIndice(config) {
        const docs = config.index.documentStore.docs;
        const documentos = [];
        const invertido = new Map(); // término → [[documento, puntos del término]]
        for (const ref of Object.keys(docs)) {
            const doc = docs[ref];
            const puntos = new Map();
            for (const campo of Object.keys(CAMPOS)) {
                const ts = terminos(doc[campo] || '');
                if (ts.length === 0) {
                    continue;
                }
                const cuenta = new Map();
                for (const t of ts) {
                    cuenta.set(t, (cuenta.get(t) || 0) + 1);
                }
                // Como elasticlunr: raíz de la frecuencia, normalizada por la longitud del campo.
                const norma = 1 / Math.sqrt(ts.length);
                for (const [t, c] of cuenta) {
                    puntos.set(t, (puntos.get(t) || 0) + CAMPOS[campo] * Math.sqrt(c) * norma);
                }
            }
            const pagina = (config.doc_urls[ref] || '').split('#')[0];
            const factor = PESO_DE_PAGINA[pagina] || 1;
            for (const [t, p] of puntos) {
                puntos.set(t, p * factor);
            }
            const numero = documentos.length;
            documentos.push({ref: ref, doc: doc});
            for (const [t, p] of puntos) {
                if (!invertido.has(t)) {
                    invertido.set(t, []);
                }
                invertido.get(t).push([numero, p]);
            }
        }
        const vocabulario = [...invertido.keys()].sort();
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
        const qs = [...new Set(terminos(consulta))];
        if (qs.length === 0) {
            return [];
        }
        const n = indice.documentos.length;
        const acumulado = new Map(); // documento → {terminos, puntos}
        for (const q of qs) {
            const candidatos = q.length >= 3 ? conPrefijo(q) : (indice.invertido.has(q) ? [q] : []);
            const mejor = new Map();
            for (const t of candidatos) {
                const lista = indice.invertido.get(t);
                const idf = 1 + Math.log(n / (lista.length + 1));
                const peso = t === q ? 1 : PESO_PREFIJO;
                for (const [d, p] of lista) {
                    const puntos = p * idf * peso;
                    if (puntos > (mejor.get(d) || 0)) {
                        mejor.set(d, puntos);
                    }
                }
            }
            for (const [d, puntos] of mejor) {
                const a = acumulado.get(d) || {terminos: 0, puntos: 0};
                a.terminos += 1;
                a.puntos += puntos;
                acumulado.set(d, a);
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

    /** Resalta en la página las palabras de la consulta (con la misma regla que la búsqueda). */
    function resaltar(palabras) {
        const consulta = terminos(palabras.join(' '));
        if (consulta.length === 0) {
            return;
        }
        marker.markRegExp(new RegExp(PALABRA.source, 'gu'), {
            exclude: mark_exclude,
            filter: (_nodo, palabra) => esBuscada(palabra, consulta),
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
            resaltar(decodeURIComponent(url.params[URL_MARK_PARAM]).split(' '));

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

    function loadSearchScript(url, id) {
        if (document.getElementById(id)) {
            return;
        }
        searchbar_outer.classList.add('searching');

        const script = document.createElement('script');
        script.src = url;
        script.id = id;
        script.onload = () => init(search);
        script.onerror = error => {
            console.error(`No se pudo cargar \`${url}\`: ${error}`);
        };
        document.head.append(script);
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
