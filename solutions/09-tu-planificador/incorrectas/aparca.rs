//! Respuesta incorrecta plausible: se apunta y duerme sin volver a mirar: un aviso perdido.

use std::sync::atomic::Ordering;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    let mut dormitorio = compartido.dormitorio.lock().unwrap();
    compartido.dormidos.fetch_add(1, Ordering::SeqCst);
    // «Ya miré antes de llamar a aparca y no había nada»: a dormir.
    dormitorio = compartido.despertador.wait(dormitorio).unwrap();
    compartido.dormidos.fetch_sub(1, Ordering::SeqCst);
    drop(dormitorio);
}
