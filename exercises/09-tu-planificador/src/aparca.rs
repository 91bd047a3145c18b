//! Ejercicio 4: dormir sin perder avisos.
//!
//! Un trabajador que no encuentra nada que hacer llama a `aparca`: debe
//! dormir sin gastar CPU hasta que haya trabajo o hasta que se apague el
//! ejecutor. Quien encola trabajo llama a `compartido.avisa_a_un_dormido()`,
//! que solo avisa si `compartido.dormidos` es mayor que 0 (para no tomar un
//! candado en cada `push`).
//!
//! El peligro es el aviso perdido (*lost wake-up*): el trabajador ha visto
//! las colas vacías, pero ANTES de apuntarse como dormido otro hilo encola
//! una tarea, ve `dormidos == 0` y no avisa a nadie. Si el trabajador se
//! duerme ahora, nadie lo despertará por esa tarea. El protocolo:
//!
//! 1. Toma el candado `compartido.dormitorio`.
//! 2. Apúntate: suma 1 a `compartido.dormidos`.
//! 3. Con el candado aún tomado, VUELVE A MIRAR: mientras no haya trabajo
//!    (`compartido.hay_trabajo()`) ni apagado (`compartido.apagado()`),
//!    espera en `compartido.despertador` (`wait` suelta el candado y duerme
//!    de una vez, y lo recupera al despertar).
//! 4. Al salir, resta 1 a `compartido.dormidos`, con el candado aún tomado.
//!
//! Las pruebas que empiezan por `todo_junto` ponen en marcha el ejecutor
//! entero, con tus cuatro piezas: resuelve antes los ejercicios 1 a 3. Las
//! demás solo usan `aparca`.

use std::sync::atomic::Ordering;

use super::robo::Compartido;

// ANCHOR: aparca
/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    let _ = (compartido, Ordering::SeqCst);
    todo!("toma el dormitorio, apúntate en dormidos y, mientras no haya trabajo ni apagado, espera en el despertador")
}
// ANCHOR_END: aparca
