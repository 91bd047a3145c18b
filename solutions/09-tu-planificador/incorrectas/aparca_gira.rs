//! Respuesta incorrecta plausible: en vez de dormir, da vueltas cediendo el núcleo (`yield_now`) hasta que haya trabajo: funciona, pero gasta CPU sin hacer nada.

use std::sync::atomic::Ordering;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    compartido.dormidos.fetch_add(1, Ordering::SeqCst);
    while !compartido.hay_trabajo() && !compartido.apagado() {
        std::thread::yield_now();
    }
    compartido.dormidos.fetch_sub(1, Ordering::SeqCst);
}
