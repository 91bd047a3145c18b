//! Ejercicio 1: una cola local acotada que desborda hacia la cola global.
//!
//! Cada hilo trabajador de Tokio tiene una cola local de capacidad fija (256).
//! Cuando está llena y llega otra tarea, Tokio no agranda la cola: saca la
//! MITAD MÁS NUEVA (la de atrás) y la manda, junto con la tarea que acaba de
//! llegar, a la cola global de inyección. La mitad más antigua se queda.
//!
//! Aquí la cola global no existe: `empuja` devuelve lo que desbordó, en
//! orden (primero la mitad de atrás, de la más antigua a la más nueva, y al
//! final la tarea nueva), y quien llama decide qué hacer con ello.

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
        let _ = tarea;
        todo!("si cabe, push_back; si no, split_off de la mitad de atrás más la nueva")
    }
}
