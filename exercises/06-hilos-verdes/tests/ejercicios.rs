//! Pruebas del capítulo 06. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/06-hilos-verdes`) y contra la solución
//! (`solutions/06-hilos-verdes`). Un módulo por ejercicio.

mod lanzable {
    use std::sync::{Arc, Mutex};

    use hilos_verdes::lanzable::anota_en_segundo_plano;

    fn palabras(lista: &[&str]) -> Vec<String> {
        lista.iter().map(|p| p.to_string()).collect()
    }

    #[tokio::test]
    async fn anota_en_orden_y_cuenta() {
        let registro = Arc::new(Mutex::new(palabras(&["hola"])));
        let tarea = anota_en_segundo_plano(registro.clone(), palabras(&["que", "tal", "estas"]));
        let total = tarea.await.expect("la tarea no debería fallar");
        assert_eq!(total, 4, "la tarea debe devolver el tamaño final del registro");
        assert_eq!(
            *registro.lock().unwrap(),
            palabras(&["hola", "que", "tal", "estas"]),
            "las palabras deben quedar al final del registro y en orden"
        );
    }

    #[tokio::test]
    async fn el_registro_queda_libre_mientras_la_tarea_cede() {
        let registro = Arc::new(Mutex::new(Vec::new()));
        let nuevas: Vec<String> = (0..1000).map(|n| n.to_string()).collect();
        let tarea = anota_en_segundo_plano(registro.clone(), nuevas);
        // En este runtime de un solo hilo, la tarea avanza cuando cedemos.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        {
            let lista = registro.try_lock().expect("el registro está bloqueado: no sueltes el candado solo al final");
            assert!(
                !lista.is_empty() && lista.len() < 1000,
                "mientras la tarea trabaja, las otras tareas deben ver su avance \
                 (había {} palabras)",
                lista.len()
            );
        }
        assert_eq!(tarea.await.expect("la tarea no debería fallar"), 1000);
    }
}

mod reparte {
    use tokio::runtime::Handle;
    use tokio::time::Instant;

    use hilos_verdes::reparte::{ESPERA, lanza, recoge};

    /// 0² + 1² + ... + (n-1)²
    fn suma_de_cuadrados(n: u64) -> u64 {
        (n - 1) * n * (2 * n - 1) / 6
    }

    #[tokio::test(start_paused = true)]
    async fn lanza_una_tarea_por_numero() {
        let tareas = lanza(100);
        assert_eq!(tareas.len(), 100, "debe haber un JoinHandle por número");
        assert_eq!(
            Handle::current().metrics().num_alive_tasks(),
            100,
            "`lanza` debe crear 100 tareas con tokio::spawn"
        );
        recoge(tareas).await.expect("ninguna tarea debería fallar");
    }

    #[tokio::test(start_paused = true)]
    async fn suma_los_cuadrados() {
        let suma = recoge(lanza(10)).await.expect("ninguna tarea debería fallar");
        assert_eq!(suma, 285, "0² + 1² + ... + 9² = 285");
    }

    #[tokio::test(start_paused = true)]
    async fn las_tareas_esperan_a_la_vez() {
        let inicio = Instant::now();
        recoge(lanza(1000)).await.expect("ninguna tarea debería fallar");
        let tardado = inicio.elapsed();
        assert!(
            tardado >= ESPERA && tardado < ESPERA * 2,
            "mil tareas que esperan 10 ms a la vez deben tardar unos 10 ms, no {tardado:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_desborda_con_setenta_mil_tareas() {
        let suma = recoge(lanza(70_000)).await;
        assert_eq!(
            suma.ok(),
            Some(suma_de_cuadrados(70_000)),
            "con i >= 65 536, i * i no cabe en u32: convierte a u64 antes de multiplicar"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn recoge_devuelve_el_fallo() {
        let tareas = vec![
            tokio::spawn(async { 1 }),
            tokio::spawn(async { panic!("esta tarea falla a propósito") }),
            tokio::spawn(async { 3 }),
        ];
        let error = recoge(tareas).await.expect_err("una tarea falló: `recoge` debe devolver Err");
        assert!(error.is_panic(), "el error debe ser el pánico de la tarea");
    }
}

mod junta {
    use tokio::runtime::Handle;
    use tokio::time::{Duration, Instant};

    use hilos_verdes::junta::{Perfil, TARDA_PEDIDOS, TARDA_PERFIL, pagina};

    #[tokio::test(start_paused = true)]
    async fn devuelve_perfil_y_pedidos() {
        let (perfil, pedidos) = pagina(7).await;
        assert_eq!(perfil, Perfil { id: 7, nombre: "cliente-7".into() });
        assert_eq!(pedidos, vec![701, 702, 703]);
    }

    #[tokio::test(start_paused = true)]
    async fn tarda_lo_que_el_mas_lento() {
        let inicio = Instant::now();
        pagina(1).await;
        let tardado = inicio.elapsed();
        assert!(
            tardado >= TARDA_PEDIDOS && tardado < TARDA_PEDIDOS + TARDA_PERFIL,
            "las dos consultas deben ir a la vez: esperaba unos 50 ms y tardó {tardado:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_lanza_tareas() {
        let pendiente = pagina(2);
        tokio::pin!(pendiente);
        // Avanza 1 ms: las consultas están en marcha, pero ninguna ha terminado.
        let resultado = tokio::time::timeout(Duration::from_millis(1), &mut pendiente).await;
        assert!(resultado.is_err(), "a 1 ms del inicio no puede haber terminado");
        assert_eq!(
            Handle::current().metrics().num_alive_tasks(),
            0,
            "usa tokio::join! dentro de la tarea, sin tokio::spawn"
        );
        pendiente.await;
    }
}
