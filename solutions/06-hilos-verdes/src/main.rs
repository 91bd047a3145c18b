//! `cargo run -p soluciones-06`: las tres soluciones del capítulo 06 en marcha.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use hilos_verdes::{junta, lanzable, reparte};

#[tokio::main]
async fn main() {
    println!("1. lanzable: una tarea anota palabras en un registro compartido");
    let registro = Arc::new(Mutex::new(vec!["hola".to_string()]));
    let nuevas = ["desde", "otra", "tarea"].map(String::from).to_vec();
    let total = lanzable::anota_en_segundo_plano(registro.clone(), nuevas).await.unwrap();
    println!("   el registro tiene {total} palabras: {:?}", registro.lock().unwrap());

    println!("2. reparte: cien mil tareas que esperan 10 ms cada una");
    let inicio = Instant::now();
    let tareas = reparte::lanza(100_000);
    let suma = reparte::recoge(tareas).await.unwrap();
    println!("   suma de los cuadrados: {suma} (en {})", medidas::milisegundos(inicio.elapsed()));

    println!("3. junta: perfil (30 ms) y pedidos (50 ms) a la vez");
    let inicio = Instant::now();
    let (perfil, pedidos) = junta::pagina(42).await;
    println!("   {perfil:?}, pedidos {pedidos:?} (en {}, no en 80 ms)", medidas::milisegundos(inicio.elapsed()));
}
