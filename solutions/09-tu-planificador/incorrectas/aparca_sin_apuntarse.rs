//! Respuesta incorrecta plausible: duerme sin apuntarse en dormidos: nadie le avisará.

use std::sync::atomic::Ordering;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    let mut dormitorio = compartido.dormitorio.lock().unwrap();
    // Sin apuntarse: avisa_a_un_dormido ve dormidos == 0 y no avisa nunca.
    while !compartido.hay_trabajo() && !compartido.apagado() {
        dormitorio = compartido.despertador.wait(dormitorio).unwrap();
    }
    let _ = Ordering::SeqCst;
    drop(dormitorio);
}
