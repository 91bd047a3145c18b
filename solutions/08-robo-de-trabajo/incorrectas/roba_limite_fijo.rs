//! Respuesta incorrecta plausible: el límite de la ladrona es la media cola de
//! Tokio (128) y no la mitad de la capacidad que le dan.

use std::collections::VecDeque;

/// Pasa a `ladrona` la mitad (redondeando hacia arriba) de las tareas de
/// `victima`, tomadas de su frente. `capacidad` es la de la cola de la
/// ladrona. Devuelve cuántas robó (0 si no robó nada).
pub fn roba_mitad<T>(victima: &mut VecDeque<T>, ladrona: &mut VecDeque<T>, capacidad: usize) -> usize {
    let _ = capacidad;
    if ladrona.len() > 128 {
        return 0; // no hay sitio seguro para el botín
    }
    let n = victima.len().div_ceil(2); // la mitad, redondeando hacia arriba
    ladrona.extend(victima.drain(..n)); // del frente, en orden
    n
}

/// El trabajador `yo` busca a quién robar entre `colas` (una por
/// trabajador), empezando por `inicio` y dando la vuelta. Devuelve
/// `Some((víctima, robadas))` con el primer robo que consigue algo, o `None`.
pub fn roba_a_alguien<T>(
    colas: &mut [VecDeque<T>],
    yo: usize,
    inicio: usize,
    capacidad: usize,
) -> Option<(usize, usize)> {
    let n = colas.len();
    for i in 0..n {
        let victima = (inicio + i) % n;
        if victima == yo {
            continue;
        }
        let (cola_victima, cola_ladrona) = dos_colas(colas, victima, yo);
        let robadas = roba_mitad(cola_victima, cola_ladrona, capacidad);
        if robadas > 0 {
            return Some((victima, robadas));
        }
    }
    None
}

/// Dos préstamos mutables a la vez dentro del mismo slice: `(&mut colas[a],
/// &mut colas[b])`. `a` y `b` deben ser distintos. Ya está hecha: úsala.
pub fn dos_colas<T>(colas: &mut [VecDeque<T>], a: usize, b: usize) -> (&mut VecDeque<T>, &mut VecDeque<T>) {
    assert_ne!(a, b, "no se puede robar a sí misma");
    if a < b {
        let (izquierda, derecha) = colas.split_at_mut(b);
        (&mut izquierda[a], &mut derecha[0])
    } else {
        let (izquierda, derecha) = colas.split_at_mut(a);
        (&mut derecha[0], &mut izquierda[b])
    }
}
