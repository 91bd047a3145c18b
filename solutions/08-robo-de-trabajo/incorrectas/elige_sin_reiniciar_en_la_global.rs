//! Respuesta incorrecta plausible: solo pone a cero la cuenta de la ranura
//! cuando la tarea sale de la cola local; una tarea de la cola global la deja
//! como estaba, y la ranura se queda apagada sin motivo.

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
        if let Some(tarea) = self.local.pop_front() {
            self.seguidas_lifo = 0;
            return Some((tarea, Origen::Local));
        }
        self.global.pop_front().map(|tarea| (tarea, Origen::Global))
    }
}
