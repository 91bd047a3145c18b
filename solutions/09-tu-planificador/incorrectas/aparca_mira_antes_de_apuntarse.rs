//! Respuesta incorrecta plausible: mira si hay trabajo ANTES de apuntarse como dormido: una tarea que llega entre las dos cosas no avisa a nadie (aviso perdido).

use std::sync::atomic::Ordering;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    if compartido.hay_trabajo() || compartido.apagado() {
        return;
    }
    // Aquí puede llegar una tarea: quien la encola ve dormidos == 0 y no avisa.
    let mut dormitorio = compartido.dormitorio.lock().unwrap();
    compartido.dormidos.fetch_add(1, Ordering::SeqCst);
    dormitorio = compartido.despertador.wait(dormitorio).unwrap();
    compartido.dormidos.fetch_sub(1, Ordering::SeqCst);
    drop(dormitorio);
}
