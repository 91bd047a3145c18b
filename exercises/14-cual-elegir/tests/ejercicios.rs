//! Pruebas del capítulo 14. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/14-cual-elegir`) y contra la solución
//! (`solutions/14-cual-elegir`). Un módulo por ejercicio. Ninguna mide
//! tiempos de verdad: las latencias son datos inventados y el reloj de
//! Tokio está en pausa.

mod percentiles {
    use std::time::Duration;

    use cual_elegir::percentiles::{Resumen, percentil, resumen};

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|&m| Duration::from_millis(m)).collect()
    }

    #[test]
    fn rango_mas_cercano_con_cien_muestras() {
        let muestras = ms(&(1..=100).collect::<Vec<_>>());
        assert_eq!(percentil(&muestras, 50.0), Some(Duration::from_millis(50)));
        assert_eq!(
            percentil(&muestras, 99.0),
            Some(Duration::from_millis(99)),
            "con 1..=100 ms, el p99 es 99 ms: la posición ceil(0,99 * 100) = 99, contando desde 1"
        );
        assert_eq!(percentil(&muestras, 100.0), Some(Duration::from_millis(100)));
        assert_eq!(percentil(&muestras, 1.0), Some(Duration::from_millis(1)));
    }

    #[test]
    fn pocas_muestras() {
        let muestras = ms(&[30, 10, 20]);
        assert_eq!(percentil(&muestras, 50.0), Some(Duration::from_millis(20)), "ceil(0,5 * 3) = 2: la segunda");
        assert_eq!(percentil(&muestras, 99.0), Some(Duration::from_millis(30)));
        assert_eq!(percentil(&ms(&[7]), 99.0), Some(Duration::from_millis(7)));
    }

    #[test]
    fn las_muestras_llegan_desordenadas() {
        // Como llegan en una prueba de carga: casi todas rápidas, y las lentas en cualquier sitio.
        let mut v: Vec<u64> = vec![1; 97];
        v.splice(10..10, [900, 5, 800]);
        let muestras = ms(&v);
        let copia = muestras.clone();
        assert_eq!(percentil(&muestras, 50.0), Some(Duration::from_millis(1)));
        assert_eq!(percentil(&muestras, 99.0), Some(Duration::from_millis(800)), "¿has ordenado las muestras?");
        assert_eq!(muestras, copia, "no cambies el orden de las muestras de quien llama");
    }

    #[test]
    fn sin_muestras_o_fuera_de_rango() {
        assert_eq!(percentil(&[], 50.0), None);
        assert_eq!(percentil(&ms(&[1, 2]), 0.0), None);
        assert_eq!(percentil(&ms(&[1, 2]), 101.0), None);
        assert_eq!(resumen(&[]), None);
    }

    #[test]
    fn resumen_de_una_carga() {
        let mut v: Vec<u64> = (1..=1000).collect();
        v.reverse();
        let r = resumen(&ms(&v)).unwrap();
        assert_eq!(
            r,
            Resumen {
                p50: Duration::from_millis(500),
                p99: Duration::from_millis(990),
                maximo: Duration::from_millis(1000)
            }
        );
    }
}

mod dimensiona {
    use std::time::Duration;

    use cual_elegir::dimensiona::{Insuficiente, limite, shards};

    #[test]
    fn shards_con_margen_y_hacia_arriba() {
        assert_eq!(shards(100_000.0, 50_000.0, 0.7, 8), Ok(3), "100 000 / (50 000 * 0,7) = 2,86: hacen falta 3");
        assert_eq!(
            shards(80_000.0, 50_000.0, 0.7, 8),
            Ok(3),
            "80 000 / (50 000 * 0,7) = 2,29: con 2 shards irían al 80 %; redondea hacia arriba"
        );
        assert_eq!(shards(70_000.0, 50_000.0, 1.0, 8), Ok(2));
        assert_eq!(shards(10.0, 50_000.0, 0.7, 8), Ok(1));
        assert_eq!(shards(0.0, 50_000.0, 0.7, 8), Ok(1), "siempre hace falta al menos un shard");
    }

    #[test]
    fn no_hay_nucleos_para_tanto() {
        assert_eq!(shards(1_000_000.0, 50_000.0, 0.7, 8), Err(Insuficiente { necesarios: 29 }));
        assert_eq!(shards(100_000.0, 50_000.0, 0.7, 3), Ok(3));
        assert_eq!(shards(100_000.0, 50_000.0, 0.7, 2), Err(Insuficiente { necesarios: 3 }));
    }

    #[test]
    fn limite_por_la_ley_de_little() {
        assert_eq!(
            limite(100_000.0, Duration::from_millis(10)),
            1_000,
            "100 000 por segundo durante 10 ms son 1 000 peticiones: la espera va en segundos"
        );
        assert_eq!(limite(50_000.0, Duration::from_millis(5)), 250);
        assert_eq!(limite(10.0, Duration::from_millis(1)), 1, "al menos 1");
    }
}

mod descarte {
    use std::time::Duration;

    use cual_elegir::descarte::{Portero, Prioridad, Rechazada};

    #[test]
    fn las_normales_no_tocan_la_reserva() {
        let portero = Portero::new(10, 2);
        let mut dentro = Vec::new();
        for n in 0..8 {
            dentro.push(portero.entra(Prioridad::Normal).unwrap_or_else(|_| panic!("la normal {n} cabe")));
        }
        assert_eq!(
            portero.entra(Prioridad::Normal).err(),
            Some(Rechazada),
            "con 8 dentro solo quedan los 2 de la reserva: la novena normal se rechaza"
        );
        assert_eq!(portero.libres(), 2, "un rechazo no se queda ningún permiso");
        dentro.push(portero.entra(Prioridad::Alta).expect("una alta usa la reserva"));
        dentro.push(portero.entra(Prioridad::Alta).expect("y otra"));
        assert_eq!(portero.entra(Prioridad::Alta).err(), Some(Rechazada), "ya no queda nada");
        assert_eq!(portero.libres(), 0);
    }

    #[test]
    fn los_permisos_vuelven_al_soltarlos() {
        let portero = Portero::new(10, 2);
        let mut dentro: Vec<_> =
            (0..10).map(|n| portero.entra(if n < 8 { Prioridad::Normal } else { Prioridad::Alta }).unwrap()).collect();
        dentro.pop();
        assert_eq!(portero.libres(), 1);
        assert!(portero.entra(Prioridad::Normal).is_err(), "con 1 libre, una normal dejaría la reserva en 0");
        dentro.truncate(dentro.len() - 2);
        assert_eq!(portero.libres(), 3);
        dentro.push(portero.entra(Prioridad::Normal).expect("con 3 libres, una normal deja 2: entra"));
        assert!(portero.entra(Prioridad::Normal).is_err(), "la siguiente dejaría 1");
    }

    #[tokio::test(start_paused = true)]
    async fn en_un_servicio_con_tareas() {
        // Llegan 20 normales a la vez; cada una tarda 10 ms (virtuales).
        let portero = Portero::new(10, 2);
        let mut aceptadas = 0;
        for _ in 0..20 {
            if let Ok(permiso) = portero.entra(Prioridad::Normal) {
                aceptadas += 1;
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    drop(permiso);
                });
            }
        }
        assert_eq!(aceptadas, 8, "de 20 a la vez, entran 8 normales");
        assert!(portero.entra(Prioridad::Alta).is_ok(), "una urgente aún entra");
        tokio::time::sleep(Duration::from_millis(11)).await;
        assert_eq!(portero.libres(), 10, "cuando terminan, devuelven sus permisos");
    }
}
