//! Respuesta incorrecta plausible: no se fía de los avisos y se despierta cada milisegundo a mirar: nunca pierde un aviso, pero un trabajador sin nada que hacer no para de despertarse.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    let mut dormitorio = compartido.dormitorio.lock().unwrap();
    compartido.dormidos.fetch_add(1, Ordering::SeqCst);
    while !compartido.hay_trabajo() && !compartido.apagado() {
        dormitorio = compartido.despertador.wait_timeout(dormitorio, Duration::from_millis(1)).unwrap().0;
    }
    compartido.dormidos.fetch_sub(1, Ordering::SeqCst);
    drop(dormitorio);
}
