//! Ejercicio 2: un robo que aguanta 10 000 planificaciones de shuttle.
//!
//! Cada trabajador del capítulo 09 tiene su `Cola`; el que se queda sin
//! trabajo roba la mitad de la cola de otro. Escribe `roba_mitad` con los
//! tipos de `shuttle` (ya están en `Cola`) de forma que:
//!
//! 1. se lleve la mitad redondeando hacia arriba (de 5, 3; de 1, 1), las
//!    MÁS ANTIGUAS (las del principio de la cola de la víctima), y las ponga
//!    al final de la cola del ladrón en el mismo orden;
//! 2. devuelva cuántas se llevó; con la víctima vacía, 0, sin tocar nada;
//! 3. no tenga nunca dos candados a la vez: dos trabajadores que se roban
//!    el uno al otro al mismo tiempo se bloquearían para siempre;
//! 4. cuente y saque bajo el MISMO candado: si lees el largo, sueltas el
//!    candado y vuelves a tomarlo para sacar, el dueño puede haber sacado
//!    tareas entre medias.
//!
//! Ninguna tarea se pierde ni se duplica, pase lo que pase a la vez. Y las
//! cantidades también cuentan: con dos ladrones a la vez, cada robo se lleva
//! la mitad de lo que la víctima tenía en ese momento, no de lo que tenía
//! cuando contó.

use std::collections::VecDeque;

use shuttle::sync::Mutex;

/// La cola local de un trabajador. Las tareas son números.
#[derive(Default)]
pub struct Cola {
    pub tareas: Mutex<VecDeque<u32>>,
}

impl Cola {
    /// Una cola con estas tareas, la primera al principio.
    pub fn con(tareas: impl IntoIterator<Item = u32>) -> Cola {
        Cola { tareas: Mutex::new(tareas.into_iter().collect()) }
    }

    /// El dueño pone una tarea al final.
    pub fn empuja(&self, tarea: u32) {
        self.tareas.lock().unwrap().push_back(tarea);
    }

    /// El dueño saca la más antigua.
    pub fn saca(&self) -> Option<u32> {
        self.tareas.lock().unwrap().pop_front()
    }

    /// Una copia de lo que hay, en orden.
    pub fn contenido(&self) -> Vec<u32> {
        self.tareas.lock().unwrap().iter().copied().collect()
    }
}

/// Mueve la mitad (hacia arriba) de las tareas más antiguas de `victima`
/// al final de `ladron`. Devuelve cuántas movió.
pub fn roba_mitad(victima: &Cola, ladron: &Cola) -> usize {
    // Un candado cada vez: contar y sacar bajo el de la víctima...
    let botin: Vec<u32> = {
        let mut cola = victima.tareas.lock().unwrap();
        let n = cola.len().div_ceil(2);
        cola.drain(..n).collect()
    };
    if botin.is_empty() {
        return 0;
    }
    // ...y, ya suelto, meterlas bajo el del ladrón.
    let n = botin.len();
    ladron.tareas.lock().unwrap().extend(botin);
    n
}
