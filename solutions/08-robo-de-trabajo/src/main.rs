//! `cargo run -p soluciones-08`: las cuatro soluciones del capítulo 08 en marcha.

use std::collections::VecDeque;

use robo_de_trabajo::desborda::ColaLocal;
use robo_de_trabajo::elige::{Origen, Trabajador};
use robo_de_trabajo::lote::cuantas_tomar;
use robo_de_trabajo::roba::{roba_a_alguien, roba_mitad};

fn main() {
    println!("1. desborda: una cola local de 256, como la de Tokio, recibe 257 tareas");
    let mut cola = ColaLocal::new(256);
    let mut desbordadas = Vec::new();
    for tarea in 0..=256u32 {
        desbordadas.extend(cola.empuja(tarea));
    }
    println!(
        "   a la cola global van {} tareas (de la {} a la {}); en la local quedan {} (de la 0 a la {})",
        desbordadas.len(),
        desbordadas[0],
        desbordadas[desbordadas.len() - 1],
        cola.len(),
        cola.len() - 1
    );

    println!("2. lote: cuántas toma de la cola global un trabajador con la cola local vacía");
    for (en_global, trabajadores) in [(1, 4), (10, 2), (1000, 2)] {
        println!(
            "   {en_global:>4} en la global, {trabajadores} trabajadores: toma {}",
            cuantas_tomar(en_global, trabajadores, 256, 256)
        );
    }

    println!("3. roba: la mitad, redondeando hacia arriba, del frente de la víctima");
    let mut victima: VecDeque<u32> = (0..5).collect();
    let mut ladrona = VecDeque::new();
    let robadas = roba_mitad(&mut victima, &mut ladrona, 256);
    println!("   de 5 tareas roba {robadas}: la ladrona tiene {ladrona:?}, la víctima {victima:?}");
    let mut colas: Vec<VecDeque<u32>> = vec![VecDeque::new(), VecDeque::new(), (10..14).collect()];
    let robo = roba_a_alguien(&mut colas, 0, 1, 256);
    println!("   el trabajador 0 busca desde el 1: {robo:?} (víctima, robadas); su cola: {:?}", colas[0]);

    println!("4. elige: dos tareas que se despiertan entre sí y una tarea en la cola global");
    let mut t = Trabajador::new(7, 3);
    t.local.extend([99, 98]);
    t.global.push_back(100);
    t.despierta(1);
    let mut orden = Vec::new();
    for _ in 0..10 {
        let Some((tarea, origen)) = t.siguiente() else { break };
        orden.push(format!(
            "{tarea}{}",
            match origen {
                Origen::Ranura => "(ranura)",
                Origen::Local => "(local)",
                Origen::Global => "(global)",
            }
        ));
        match tarea {
            1 => t.despierta(2),
            2 => t.despierta(1),
            otra => t.local.push_back(otra), // las demás ceden y vuelven a la cola
        }
    }
    println!("   {}", orden.join(" "));
    println!("   la ranura nunca da más de 3 seguidas, y la 100 corre en la vuelta 7");
}
