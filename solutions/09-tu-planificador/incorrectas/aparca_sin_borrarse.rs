//! Respuesta incorrecta plausible: no se borra de dormidos al despertar.

use std::sync::atomic::Ordering;

use super::robo::Compartido;

/// Duerme hasta que haya trabajo en alguna cola o se apague el ejecutor.
pub fn aparca(compartido: &Compartido) {
    let mut dormitorio = compartido.dormitorio.lock().unwrap();
    compartido.dormidos.fetch_add(1, Ordering::SeqCst);
    // Apuntado primero, mirar después: quien encole a partir de ahora verá
    // que alguien duerme y avisará; lo que se encoló antes, lo vemos aquí.
    while !compartido.hay_trabajo() && !compartido.apagado() {
        dormitorio = compartido.despertador.wait(dormitorio).unwrap();
    }
    drop(dormitorio); // se olvida de restar: dormidos solo crece
}
