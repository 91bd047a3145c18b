// Los cuestionarios del libro («Comprueba lo que has entendido»), propio del
// curso. El HTML lo escribe el preprocesador del curso a partir de
// book/cuestionarios/NN-tema.toml (curso/src/libro/cuestionarios/): cada
// pregunta es un formulario con sus opciones, y cada opción lleva ya su
// explicación, oculta. Este guion corrige, enseña las explicaciones, guarda
// el progreso en este navegador (localStorage, sin cuenta y sin red) y lo
// borra con «Reiniciar el cuestionario».
'use strict';

(function cuestionarios() {
    const CLAVE = 'curso-cuestionarios';
    const secciones = Array.from(document.querySelectorAll('section.cuestionario'));
    if (secciones.length === 0) {
        return;
    }

    // Lo guardado: { capítulo: { version, respuestas: { id: { elegidas, valor, bien } } } }.
    // Sin almacenamiento (navegación privada, cookies bloqueadas) funciona
    // igual, solo que no recuerda.
    function leerTodo() {
        try {
            const guardado = JSON.parse(window.localStorage.getItem(CLAVE));
            return guardado && typeof guardado === 'object' ? guardado : {};
        } catch (e) {
            return {};
        }
    }

    function guardarTodo(todo) {
        try {
            window.localStorage.setItem(CLAVE, JSON.stringify(todo));
        } catch (e) {
            // Sin almacenamiento: el cuestionario sigue funcionando en esta visita.
        }
    }

    function estadoDe(seccion) {
        const todo = leerTodo();
        const propio = todo[seccion.dataset.cuestionario];
        if (!propio || propio.version !== seccion.dataset.version) {
            // Las preguntas cambiaron desde que se guardó: se empieza de nuevo.
            return { version: seccion.dataset.version, respuestas: {} };
        }
        return propio;
    }

    function guardarEstado(seccion, estado) {
        const todo = leerTodo();
        if (Object.keys(estado.respuestas).length === 0) {
            delete todo[seccion.dataset.cuestionario];
        } else {
            todo[seccion.dataset.cuestionario] = estado;
        }
        guardarTodo(todo);
    }

    // «1017,5», «1 017,5», «99.8 %», «55 994»: un número, con coma o punto decimal.
    function numeroEscrito(texto) {
        const limpio = texto.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.').replace(/[^0-9.+-]/g, '');
        return /\d/.test(limpio) ? Number.parseFloat(limpio) : NaN;
    }

    function opciones(form) {
        return Array.from(form.querySelectorAll('.pregunta-opciones li.opcion'));
    }

    // La respuesta que hay ahora en el formulario, corregida; null si no hay ninguna.
    function corregir(form) {
        const campo = form.querySelector('input[data-valor]');
        if (campo) {
            const escrito = numeroEscrito(campo.value);
            if (Number.isNaN(escrito)) {
                return null;
            }
            const valor = Number(campo.dataset.valor);
            const margen = Math.abs(valor) * Number(campo.dataset.margen) / 100;
            return { valor: campo.value, bien: Math.abs(escrito - valor) <= margen + 1e-9 };
        }
        const elegidas = [];
        let bien = true;
        for (const li of opciones(form)) {
            const entrada = li.querySelector('input');
            if (entrada.checked) {
                elegidas.push(entrada.value);
            }
            if (entrada.checked !== (li.dataset.correcta === 'true')) {
                bien = false;
            }
        }
        return elegidas.length === 0 ? null : { elegidas, bien };
    }

    function veredicto(form, respuesta) {
        const numero = form.dataset.tipo === 'numero';
        const varias = form.dataset.varias === 'true';
        if (respuesta.bien) {
            if (numero) {
                return '¡Correcto! Tu respuesta está dentro del margen.';
            }
            return varias ? '¡Correcto! Marcaste exactamente las ciertas.' : '¡Correcto! Lee también por qué las demás no lo son.';
        }
        if (numero) {
            return 'No: mira debajo lo que midió la lección.';
        }
        return varias ? 'No del todo: debajo de cada opción tienes si era cierta y por qué.' : 'No es la correcta: debajo de cada opción tienes por qué.';
    }

    // Enseña una pregunta respondida: lo elegido, las explicaciones y el veredicto.
    function mostrar(form, respuesta) {
        const campo = form.querySelector('input[data-valor]');
        if (campo) {
            campo.value = respuesta.valor;
            campo.readOnly = true;
        }
        for (const li of opciones(form)) {
            const entrada = li.querySelector('input');
            entrada.checked = (respuesta.elegidas || []).includes(entrada.value);
            entrada.disabled = true;
            li.classList.add(li.dataset.correcta === 'true' ? 'opcion-es-correcta' : 'opcion-es-incorrecta');
            if (entrada.checked && !li.querySelector('.opcion-tuya')) {
                const tuya = document.createElement('span');
                tuya.className = 'opcion-tuya';
                tuya.textContent = 'Tu respuesta';
                li.querySelector('.opcion-texto').after(tuya);
            }
        }
        for (const explicacion of form.querySelectorAll('.opcion-explicacion, .pregunta-explicacion')) {
            explicacion.hidden = false;
        }
        const boton = form.querySelector('.pregunta-comprobar');
        boton.textContent = 'Respondida';
        boton.setAttribute('aria-disabled', 'true');
        const texto = form.querySelector('.pregunta-veredicto');
        texto.textContent = veredicto(form, respuesta);
        form.classList.remove('pregunta-bien', 'pregunta-mal');
        form.classList.add('respondida', respuesta.bien ? 'pregunta-bien' : 'pregunta-mal');
    }

    function limpiar(form) {
        const campo = form.querySelector('input[data-valor]');
        if (campo) {
            campo.value = '';
            campo.readOnly = false;
        }
        for (const li of opciones(form)) {
            const entrada = li.querySelector('input');
            entrada.checked = false;
            entrada.disabled = false;
            li.classList.remove('opcion-es-correcta', 'opcion-es-incorrecta');
            li.querySelectorAll('.opcion-tuya').forEach(e => e.remove());
        }
        for (const explicacion of form.querySelectorAll('.opcion-explicacion, .pregunta-explicacion')) {
            explicacion.hidden = true;
        }
        const boton = form.querySelector('.pregunta-comprobar');
        boton.textContent = 'Comprobar';
        boton.removeAttribute('aria-disabled');
        form.querySelector('.pregunta-veredicto').textContent = '';
        form.classList.remove('respondida', 'pregunta-bien', 'pregunta-mal');
    }

    function progreso(seccion, estado, prefijo) {
        const total = seccion.querySelectorAll('form.pregunta').length;
        const respuestas = Object.values(estado.respuestas);
        const bien = respuestas.filter(r => r.bien).length;
        let texto;
        if (respuestas.length === 0) {
            texto = `Aún no has respondido ninguna de las ${total} preguntas.`;
        } else if (respuestas.length === total) {
            texto = `Has respondido las ${total} preguntas: ${bien} bien. «Reiniciar el cuestionario» las deja en blanco.`;
        } else {
            texto = `Has respondido ${respuestas.length} de ${total} preguntas: ${bien} bien.`;
        }
        seccion.querySelector('.cuestionario-progreso').textContent = (prefijo || '') + texto;
    }

    for (const seccion of secciones) {
        let estado = estadoDe(seccion);
        const forms = Array.from(seccion.querySelectorAll('form.pregunta'));
        for (const form of forms) {
            const guardada = estado.respuestas[form.dataset.id];
            if (guardada) {
                mostrar(form, guardada);
            }
            form.addEventListener('submit', evento => {
                evento.preventDefault();
                if (form.classList.contains('respondida')) {
                    return;
                }
                const respuesta = corregir(form);
                if (!respuesta) {
                    form.querySelector('.pregunta-veredicto').textContent = form.dataset.tipo === 'numero'
                        ? 'Escribe un número antes de comprobar.'
                        : 'Elige una respuesta antes de comprobar.';
                    return;
                }
                estado = estadoDe(seccion);
                estado.respuestas[form.dataset.id] = respuesta;
                guardarEstado(seccion, estado);
                mostrar(form, respuesta);
                progreso(seccion, estado);
            });
        }
        seccion.querySelector('.cuestionario-reiniciar').addEventListener('click', () => {
            estado = { version: seccion.dataset.version, respuestas: {} };
            guardarEstado(seccion, estado);
            forms.forEach(limpiar);
            progreso(seccion, estado, 'Cuestionario reiniciado. ');
            const primera = seccion.querySelector('form.pregunta input');
            if (primera) {
                primera.focus();
            }
        });
        progreso(seccion, estado);
    }
})();
