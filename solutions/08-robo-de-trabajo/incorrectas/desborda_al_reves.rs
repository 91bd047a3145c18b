//! Respuesta incorrecta plausible: saca la mitad de atrás con `pop_back`, así que la
//! devuelve al revés (de la más nueva a la más antigua) antes de la tarea nueva.

use std::collections::VecDeque;

/// Una cola de tareas con capacidad fija. El frente es la tarea más antigua.
#[derive(Debug, Clone)]
pub struct ColaLocal<T> {
    tareas: VecDeque<T>,
    capacidad: usize,
}

impl<T> ColaLocal<T> {
    /// Una cola vacía. La capacidad debe ser par y al menos 2 (en Tokio, 256).
    pub fn new(capacidad: usize) -> Self {
        assert!(
            capacidad >= 2 && capacidad.is_multiple_of(2),
            "la capacidad debe ser par y al menos 2, no {capacidad}"
        );
        ColaLocal { tareas: VecDeque::with_capacity(capacidad), capacidad }
    }

    /// Cuántas tareas caben.
    pub fn capacidad(&self) -> usize {
        self.capacidad
    }

    /// Cuántas tareas hay.
    pub fn len(&self) -> usize {
        self.tareas.len()
    }

    /// `true` si no hay tareas.
    pub fn is_empty(&self) -> bool {
        self.tareas.is_empty()
    }

    /// Saca la tarea del frente (la más antigua), como hace el trabajador.
    pub fn saca(&mut self) -> Option<T> {
        self.tareas.pop_front()
    }

    /// Las tareas en orden, del frente al final.
    pub fn tareas(&self) -> impl Iterator<Item = &T> {
        self.tareas.iter()
    }

    /// Pone `tarea` al final. Si cabe, devuelve un vector vacío. Si la cola
    /// está llena, saca la mitad de atrás (`capacidad / 2` tareas) y la
    /// devuelve, en orden, con `tarea` al final: `capacidad / 2 + 1` tareas.
    pub fn empuja(&mut self, tarea: T) -> Vec<T> {
        if self.tareas.len() < self.capacidad {
            self.tareas.push_back(tarea);
            return Vec::new();
        }
        // Llena: la mitad de atrás (las más nuevas) se va, y la nueva con ella.
        // La mitad de delante se queda: son las que más llevan esperando.
        let mut fuera: Vec<T> = Vec::new();
        for _ in 0..self.capacidad / 2 {
            fuera.extend(self.tareas.pop_back());
        }
        fuera.push(tarea);
        fuera
    }
}
