//! Ejercicio 4: qué tarea sondea ahora el trabajador.
//!
//! Un modelo pequeño de la decisión de `worker.rs::next_task` en Tokio, con
//! sus dos defensas contra la inanición:
//!
//! 1. **La cola global, cada `intervalo` vueltas.** Cada llamada a
//!    `siguiente` es una vuelta (*tick*): suma 1 a `tick` con `wrapping_add`,
//!    para que la cuenta dé la vuelta en vez de desbordarse (la primera
//!    llamada es la vuelta 1). Si `tick % intervalo == 0` y hay algo en la cola
//!    global, la tarea sale de la global, aunque haya trabajo local.
//! 2. **La ranura LIFO, con tope.** Si no, va primero la ranura LIFO, pero
//!    no más de `max_lifo` veces seguidas. Con el tope alcanzado, la tarea de
//!    la ranura pasa al FINAL de la cola local y se sigue con el paso 3.
//! 3. Si no, el frente de la cola local.
//! 4. Si la local está vacía, el frente de la cola global.
//! 5. Si no hay nada, `None`.
//!
//! Cualquier tarea que no sale de la ranura pone a cero la cuenta de
//! seguidas de la ranura. Una simplificación respecto a Tokio: allí las
//! tareas de la ranura corren dentro de la misma vuelta que la tarea que
//! las despertó; aquí cada elección es una vuelta.

use std::collections::VecDeque;

/// De dónde salió la tarea elegida.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origen {
    Ranura,
    Local,
    Global,
}

/// El estado de un trabajador, visto desde dentro.
#[derive(Debug, Clone)]
pub struct Trabajador<T> {
    /// La ranura LIFO: la última tarea despertada por este trabajador.
    pub ranura: Option<T>,
    /// La cola local; el frente es la más antigua.
    pub local: VecDeque<T>,
    /// La cola global de inyección (en Tokio es compartida; aquí, de uno).
    pub global: VecDeque<T>,
    /// Cada cuántas vueltas se mira primero la cola global.
    pub intervalo: u32,
    /// Cuántas veces seguidas puede salir una tarea de la ranura.
    pub max_lifo: u32,
    /// Vueltas dadas hasta ahora.
    pub tick: u32,
    /// Cuántas de las últimas tareas elegidas, seguidas, salieron de la ranura.
    pub seguidas_lifo: u32,
}

impl<T> Trabajador<T> {
    /// Un trabajador sin tareas.
    pub fn new(intervalo: u32, max_lifo: u32) -> Self {
        assert!(intervalo >= 1, "el intervalo debe ser al menos 1");
        Trabajador {
            ranura: None,
            local: VecDeque::new(),
            global: VecDeque::new(),
            intervalo,
            max_lifo,
            tick: 0,
            seguidas_lifo: 0,
        }
    }

    /// Una tarea despertada (o lanzada) desde este trabajador va a la ranura;
    /// si la ranura estaba ocupada, la anterior pasa al final de la cola
    /// local. Ya está hecha.
    pub fn despierta(&mut self, tarea: T) {
        if let Some(anterior) = self.ranura.replace(tarea) {
            self.local.push_back(anterior);
        }
    }

    /// Elige la siguiente tarea según las reglas de arriba y dice de dónde salió.
    pub fn siguiente(&mut self) -> Option<(T, Origen)> {
        self.tick = self.tick.wrapping_add(1);

        // 1. Cada `intervalo` vueltas, la cola global va primero.
        if self.tick.is_multiple_of(self.intervalo)
            && let Some(tarea) = self.global.pop_front()
        {
            self.seguidas_lifo = 0;
            return Some((tarea, Origen::Global));
        }

        // 2. La ranura LIFO, si no ha llegado a su tope.
        if let Some(tarea) = self.ranura.take() {
            if self.seguidas_lifo < self.max_lifo {
                self.seguidas_lifo += 1;
                return Some((tarea, Origen::Ranura));
            }
            // Tope alcanzado: la tarea de la ranura espera su turno al final.
            self.local.push_back(tarea);
        }

        // 3. y 4. El frente de la cola local y, si está vacía, la global.
        self.seguidas_lifo = 0;
        if let Some(tarea) = self.local.pop_front() {
            return Some((tarea, Origen::Local));
        }
        self.global.pop_front().map(|tarea| (tarea, Origen::Global))
    }
}
